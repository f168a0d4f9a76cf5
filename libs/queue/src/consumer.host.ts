import { WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';

export interface ConsumerSettings {
  concurrency: number;
  /** How long a job's lock lasts without renewal; a crashed worker's jobs return after about this long. */
  lockDurationMs: number;
  /** How often workers look for jobs whose lock expired (stalled) and put them back. */
  stalledIntervalMs: number;
}

/**
 * A job whose process died or froze (its lock expired) is delivered once more; a second stall fails it
 * for good (BullMQ fails it when it is next taken, without running it). So a template or input that
 * kills workers costs at most two of them, and its job ends failed instead of looping.
 */
export const MAX_STALLED_DELIVERIES = 1;

/** The message BullMQ fails a job with after more stalls than MAX_STALLED_DELIVERIES allows. */
const STALLED_TOO_OFTEN = /stalled more than allowable limit/;

/** Why a job failed for good, in words a client may read (never an internal error message). */
export type FinalFailureCause = 'stalled' | 'failed';

/**
 * Base of every processor. The @Processor decorator only takes static options, so processors are
 * declared with `{ autorun: false }` and this class applies the configured concurrency and lock
 * settings before it starts the worker. It also logs failures without crashing the worker, and hands
 * each job that failed for good (retries used up, unrecoverable, or stalled too often) to
 * `onFinalFailure`, so the job's record says so and never stays queued.
 */
export abstract class ConsumerHost extends WorkerHost implements OnApplicationBootstrap {
  protected readonly logger = new Logger(this.constructor.name);

  protected constructor(private readonly settings: ConsumerSettings) {
    super();
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
      if (job && isFinalFailure(job, error)) {
        const cause: FinalFailureCause = STALLED_TOO_OFTEN.test(error.message) ? 'stalled' : 'failed';
        this.onFinalFailure(job, cause).catch((recordError: unknown) =>
          this.logger.error(`job ${job.id} (${job.name}): the final failure could not be recorded: ${String(recordError)}`),
        );
      }
    });
    worker.on('error', (error) => this.logger.error(`worker error: ${error.message}`));
    // run() resolves only when the worker closes; errors surface through the 'error' event.
    void worker.run().catch((error: unknown) => this.logger.error(`worker stopped: ${String(error)}`));
  }

  /** Records that a job failed for good (override where a job has a record that a client reads). */
  protected async onFinalFailure(_job: Job, _cause: FinalFailureCause): Promise<void> {
    // Most jobs have nothing to record: their failure is in BullMQ's failed set.
  }
}

function isFinalFailure(job: Job, error: Error): boolean {
  if (error.name === 'UnrecoverableError' || STALLED_TOO_OFTEN.test(error.message)) return true;
  return job.attemptsMade >= (job.opts.attempts ?? 1);
}
