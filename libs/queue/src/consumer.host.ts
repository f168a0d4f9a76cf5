import { WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { isJobName, jobsOfQueue, JOB_DEFINITIONS, payloadProblem, type JobName, type QueueName } from '@mailproof/contracts';
import { databasePortOf, isStoreUnavailable } from '@mailproof/persistence';
import type { FinalFailureCause, JobContext, JobHandler } from './job-handler';
import { jobSpanOptions } from './job-tracing';
import { tracer } from '@mailproof/tracing';

export interface ConsumerSettings {
  concurrency: number;
  /** How long a job's lock lasts without renewal; a crashed worker's jobs return after about this long. */
  lockDurationMs: number;
  /** How often workers look for jobs whose lock expired (stalled) and put them back. */
  stalledIntervalMs: number;
  /**
   * While PostgreSQL is unavailable, a job that failed for that reason is put back to wait (no attempt
   * spent) as long as it is younger than this; then it takes its normal attempts. 0: never put back.
   */
  storeRetryMs?: number;
  /** The database's URL: a refused connection to another port (spamd, a link) is not a store outage. */
  databaseUrl?: string;
}

/** The waits between a job's tries while the store is unavailable: 500 ms doubling to at most 5 s. */
export function storeRetryDelayMs(triesSoFar: number): number {
  return Math.min(500 * 2 ** Math.max(0, triesSoFar - 1), 5_000);
}

/**
 * A job whose process died or froze (its lock expired) is delivered once more; a second stall fails it
 * for good (BullMQ fails it when it is next taken, without running it). So a template or input that
 * kills workers costs at most two of them, and its job ends failed instead of looping.
 */
export const MAX_STALLED_DELIVERIES = 1;

/** The message BullMQ fails a job with after more stalls than MAX_STALLED_DELIVERIES allows. */
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

/**
 * The one dispatcher of a queue. Each worker app declares a processor per queue that extends this
 * class with the queue's handlers (`@Processor(queue, { autorun: false })`: the decorator only takes
 * static options, so the configured concurrency and lock settings are applied here before the worker
 * starts). It
 * - refuses to boot when a job of the map that runs on its queue has no handler, or a handler is for a
 *   job that does not run there;
 * - fails unknown jobs and payloads that do not match `JOB_DEFINITIONS` (envelope, schemaVersion and the
 *   job's own check) with `UnrecoverableError`: no retry can fix them;
 * - hands the checked payload to the job's handler;
 * - gives each job that failed for good (last attempt, or stalled too often) to the handler's
 *   `onFinalFailure`, so its record says so instead of staying queued.
 */
export abstract class ConsumerHost extends WorkerHost implements OnApplicationBootstrap {
  protected readonly logger = new Logger(this.constructor.name);
  private readonly handlers = new Map<string, JobHandler>();

  protected constructor(
    private readonly queue: QueueName,
    private readonly settings: ConsumerSettings,
    handlers: ReadonlyArray<JobHandler<never> | JobHandler>,
  ) {
    super();
    for (const handler of handlers as JobHandler[]) {
      if (!JOB_DEFINITIONS[handler.jobName]?.queues.includes(queue)) {
        throw new Error(`${queue}: a handler for ${handler.jobName}, which does not run on this queue`);
      }
      if (this.handlers.has(handler.jobName)) throw new Error(`${queue}: two handlers for ${handler.jobName}`);
      this.handlers.set(handler.jobName, handler);
    }
    const missing = jobsOfQueue(queue).filter((name) => !this.handlers.has(name));
    if (missing.length > 0) throw new Error(`${queue}: refusing to start without a handler for ${missing.join(', ')}`);
  }

  onApplicationBootstrap(): void {
    const worker = this.worker;
    worker.concurrency = this.settings.concurrency;
    Object.assign(worker.opts, {
      lockDuration: this.settings.lockDurationMs,
      stalledInterval: this.settings.stalledIntervalMs,
      maxStalledCount: MAX_STALLED_DELIVERIES,
    });
    worker.on('failed', (job, error) => {
      this.logger.warn(`job ${job?.id} (${job?.name}) failed: ${error.message}`);
      // A job failed for stalling never reached process(): its failure is recorded here.
      if (job && STALLED_TOO_OFTEN.test(error.message)) void this.recordFinalFailure(job, 'stalled');
    });
    worker.on('error', (error) => this.logger.error(`worker error: ${error.message}`));
    // run() resolves only when the worker closes; errors surface through the 'error' event.
    void worker.run().catch((error: unknown) => this.logger.error(`worker stopped: ${String(error)}`));
  }

  /** One span per attempt (docs/operations.md, "Tracing"): a job's own trace or its request's. */
  async process(job: Job, token?: string): Promise<unknown> {
    const tracing = tracer();
    if (!tracing.enabled) return this.processJob(job, token);
    return tracing.inSpan(`job ${job.name}`, jobSpanOptions(job, this.queue), () => this.processJob(job, token));
  }

  private async processJob(job: Job, token?: string): Promise<unknown> {
    const handler = this.handlers.get(job.name);
    if (!handler || !isJobName(job.name)) throw new UnrecoverableError(`${this.queue}: unknown job ${job.name}`);
    const problem = payloadProblem(job.name, job.data);
    if (problem) throw new UnrecoverableError(`${job.name}: ${problem}`);
    const context: JobContext = { id: String(job.id), queue: this.queue, scheduledFor: job.timestamp + (job.opts.delay ?? 0) };
    try {
      return await handler.handle(job.data as never, context);
    } catch (error) {
      if (token && this.putBackWhileStoreIsDown(job, error)) {
        const delay = storeRetryDelayMs(job.attemptsStarted);
        this.logger.warn(
          `job ${job.id} (${job.name}): the store is unavailable (${error instanceof Error ? error.message : String(error)}); retried in ${delay} ms`,
        );
        // skipAttempt: the job keeps all of its attempts for faults of its own.
        await job.moveToDelayed(Date.now() + delay, token);
        throw new DelayedError();
      }
      // The last attempt: the failure is recorded before BullMQ reports it, so a waiting request reads it.
      const final = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (final) await this.recordFinalFailure(job, 'failed');
      throw error;
    }
  }

  private putBackWhileStoreIsDown(job: Job, error: unknown): boolean {
    const window = this.settings.storeRetryMs ?? 0;
    const databasePort = this.settings.databaseUrl === undefined ? undefined : databasePortOf(this.settings.databaseUrl);
    return window > 0 && !(error instanceof UnrecoverableError) && isStoreUnavailable(error, databasePort) && Date.now() - job.timestamp < window;
  }

  private async recordFinalFailure(job: Job, cause: FinalFailureCause): Promise<void> {
    const handler = this.handlers.get(job.name);
    if (!handler?.onFinalFailure || payloadProblem(job.name as JobName, job.data)) return;
    try {
      await handler.onFinalFailure(job.data as never, cause);
    } catch (error) {
      this.logger.error(`job ${job.id} (${job.name}): its final failure could not be recorded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
