import { Injectable, OnModuleInit } from '@nestjs/common';
import { Job } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { QUEUE_NAMES, type QueueName } from '@mailproof/contracts';
import { JobProducer, QueueEventsRegistry } from '@mailproof/queue';

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
  ) {
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
    collectDefaultMetrics({ register: this.registry, prefix: 'mailproof_' });
  }

  async onModuleInit(): Promise<void> {
    this.queueEvents.onCreate((queue, events) => {
      events.on('completed', ({ jobId }) => void this.observeCompletion(queue, jobId));
      events.on('failed', () => this.jobFailures.inc({ queue }));
    });
  }

  private async observeCompletion(queue: QueueName, jobId: string): Promise<void> {
    const job = await Job.fromId(this.jobs.queue(queue), jobId).catch(() => undefined);
    if (job?.processedOn && job.finishedOn) {
      this.jobDuration.observe({ queue, job: job.name }, (job.finishedOn - job.processedOn) / 1000);
    }
  }

  /** Subscribes to every queue's events so job metrics flow even before any request waits on a job. */
  async watchQueues(): Promise<void> {
    await Promise.all(QUEUE_NAMES.map((queue) => this.queueEvents.get(queue)));
  }
}
