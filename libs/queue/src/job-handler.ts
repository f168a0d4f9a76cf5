import type { JobName, JobPayload, JobResult, QueueName } from '@mailproof/contracts';

/** Why a job failed for good, in words a client may read (never an internal error message). */
export type FinalFailureCause = 'stalled' | 'failed';

/** What a handler may know of the job it runs, beyond its payload. */
export interface JobContext {
  id: string;
  queue: QueueName;
  /** The moment the job was meant to run: when it was added, plus its delay. */
  scheduledFor: number;
}

/**
 * Runs one job of the job map. One `<job>.handler.ts` per job, beside the service it calls; the
 * queue's `ConsumerHost` checks the payload against `JOB_DEFINITIONS` before `handle` sees it, so a
 * handler never casts or checks a schemaVersion.
 */
export interface JobHandler<N extends JobName = JobName> {
  readonly jobName: N;
  handle(payload: JobPayload<N>, context: JobContext): Promise<JobResult<N>>;
  /**
   * The job failed for good (its last attempt threw, or it stalled a worker twice): record it where a
   * client reads it, so nothing stays "queued" forever. Must be idempotent.
   */
  onFinalFailure?(payload: JobPayload<N>, cause: FinalFailureCause): Promise<void>;
}
