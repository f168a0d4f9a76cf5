import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { JOB_DEFINITIONS, QUEUE_NAMES, type QueueName } from '@mailproof/contracts';
import { FailureLog, JobProducer, QueueEventsRegistry } from '@mailproof/queue';
import { PreviewAnalysisCache } from '../shares/preview-analysis.cache';
import { QueueDepthService } from './queue-depth.service';

/** How long completions gather before their durations are read in one round trip. */
const COMPLETED_BATCH_MS = 500;
/** Jobs seen taking that have not finished yet, at most (the oldest is forgotten first: its duration is then read from its hash). */
const ACTIVE_JOBS_KEPT = 10_000;
/** Our job names, longest first: a job id built by contracts' jobId() begins with its name and a dash. */
const JOB_NAMES_LONGEST_FIRST = Object.keys(JOB_DEFINITIONS).sort((a, b) => b.length - a.length);

/** The job name a contracts-built job id begins with; undefined for other ids (a job scheduler's). */
export function jobNameOfId(jobId: string): string | undefined {
  return JOB_NAMES_LONGEST_FIRST.find((name) => jobId.startsWith(`${name}-`));
}

/** The Redis time (ms) of an event, from its stream entry id (`<ms>-<seq>`). */
function eventTimeMs(eventId: string): number {
  return Number(eventId.slice(0, eventId.indexOf('-')));
}

/**
 * Prometheus metrics of one API process: HTTP latency, queue depths (read from Redis at scrape
 * time) and job durations/failures (from the shared QueueEvents, so they cover every worker).
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'mailproof_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [this.registry],
  });

  private readonly jobDuration = new Histogram({
    name: 'mailproof_job_duration_seconds',
    help: 'Time from a worker taking a job to finishing it, by queue and job name.',
    labelNames: ['queue', 'job'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  private readonly jobFailures = new Counter({
    name: 'mailproof_job_failures_total',
    help: 'Jobs whose attempt failed, by queue.',
    labelNames: ['queue'],
    registers: [this.registry],
  });

  constructor(
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
    analyses: PreviewAnalysisCache,
    depths: QueueDepthService,
  ) {
    const pageCache = {
      bytes: 'Estimated memory of the analyses this API keeps for share and preview pages (PREVIEW_PAGE_CACHE_MB).',
      entries: 'Analyses this API keeps for share and preview pages.',
    };
    for (const [measure, help] of Object.entries(pageCache) as Array<[keyof typeof pageCache, string]>) {
      new Gauge({
        name: `mailproof_preview_page_cache_${measure}`,
        help,
        registers: [this.registry],
        collect() {
          this.set(analyses.usage[measure]);
        },
      });
    }
    const jobsProducer = this.jobs;
    new Gauge({
      name: 'mailproof_queue_jobs',
      help: 'Jobs per queue and state, read at scrape time.',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        for (const queue of QUEUE_NAMES) {
          const counts = await jobsProducer.queue(queue).getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
          for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
        }
      },
    });
    new Gauge({
      name: 'mailproof_queue_backlog',
      help: 'Jobs a worker pool has to take next per queue (waiting + prioritized), as GET /metrics/queues reports them.',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        const { queues } = await depths.read();
        for (const [queue, depth] of Object.entries(queues)) this.set({ queue }, depth.backlog);
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'mailproof_' });
  }

  /** Jobs completed since the last read of their times, per queue. */
  private readonly completed = new Map<QueueName, string[]>();
  private completedTimer: NodeJS.Timeout | undefined;
  private readonly completedReads = new FailureLog('reading completed jobs for mailproof_job_duration_seconds (Redis)', new Logger('Metrics'));

  /** When each job was taken ("<queue> <jobId>" to the Redis time of its `active` event), until it finishes. */
  private readonly takenAt = new Map<string, number>();

  async onModuleInit(): Promise<void> {
    this.queueEvents.onCreate((queue, events) => {
      events.on('active', ({ jobId }, eventId) => this.observeTaken(queue, jobId, eventId));
      events.on('completed', ({ jobId }, eventId) => this.observeFinished(queue, jobId, eventId));
      events.on('failed', ({ jobId }) => {
        this.takenAt.delete(`${queue} ${jobId}`);
        this.jobFailures.inc({ queue });
      });
    });
  }

  private observeTaken(queue: QueueName, jobId: string, eventId: string): void {
    if (this.takenAt.size >= ACTIVE_JOBS_KEPT) this.takenAt.delete(this.takenAt.keys().next().value as string);
    this.takenAt.set(`${queue} ${jobId}`, eventTimeMs(eventId));
  }

  /**
   * A job's duration from its own events: the times of its `active` and `completed` entries in the queue's event
   * stream, which this process reads anyway. No Redis command per job, and a job removed on completion (a preview's
   * analysis, docs/benchmarks.md) is measured too. A job taken before this process listened, or whose id does not
   * name its job, is read from its hash (readCompleted).
   */
  private observeFinished(queue: QueueName, jobId: string, eventId: string): void {
    const key = `${queue} ${jobId}`;
    const taken = this.takenAt.get(key);
    this.takenAt.delete(key);
    const job = jobNameOfId(jobId);
    if (taken === undefined || job === undefined) return this.observeCompletion(queue, jobId);
    this.jobDuration.observe({ queue, job }, Math.max(0, eventTimeMs(eventId) - taken) / 1000);
  }

  /**
   * Otherwise a job's duration is read from its hash (processedOn, finishedOn): for the jobs completed within
   * COMPLETED_BATCH_MS, in one pipelined round trip per queue, instead of one HGETALL of the whole job
   * per completion (each one a round trip on the connection that also carries the API's own commands).
   */
  private observeCompletion(queue: QueueName, jobId: string): void {
    const ids = this.completed.get(queue) ?? [];
    ids.push(jobId);
    this.completed.set(queue, ids);
    this.completedTimer ??= setTimeout(() => void this.readCompleted(), COMPLETED_BATCH_MS).unref();
  }

  private async readCompleted(): Promise<void> {
    this.completedTimer = undefined;
    const batches = [...this.completed];
    this.completed.clear();
    await Promise.all(
      batches.map(async ([queue, ids]) => {
        const bullQueue = this.jobs.queue(queue);
        const client = await bullQueue.getBackend().client;
        const pipeline = client.pipeline();
        // All of a queue's keys share its hash tag, so the pipeline goes to one node of a Redis Cluster.
        for (const id of ids) pipeline.hgetall(bullQueue.toKey(id));
        const replies = (await pipeline.exec()) ?? [];
        for (const [error, hash] of replies) {
          const { name, processedOn, finishedOn } = (error ? {} : hash) as Record<string, string | undefined>;
          if (name && processedOn && finishedOn) this.jobDuration.observe({ queue, job: name }, (Number(finishedOn) - Number(processedOn)) / 1000);
        }
      }),
    ).then(
      () => this.completedReads.succeeded(),
      // Metrics only: a Redis hiccup loses these observations, nothing else; the outage is logged once.
      (error: unknown) => this.completedReads.failed(error),
    );
  }

  /** Subscribes to every queue's events so job metrics flow even before any request waits on a job. */
  async watchQueues(): Promise<void> {
    await Promise.all(QUEUE_NAMES.map((queue) => this.queueEvents.get(queue)));
  }
}
