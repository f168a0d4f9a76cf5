import type { JobsOptions } from 'bullmq';

/**
 * Defaults for every job: retried with exponential backoff, and kept for a while after it ends
 * (never removeOnComplete: true) so a waiting API request can still read its result.
 *
 * Jobs carry ids, never an email (test/integration/customer-data-flow.int-spec.ts reads every key), and a
 * finished job is kept no longer than the shortest retention an account can choose above 0, one day:
 * completed jobs an hour, failed ones a day (long enough to look into a failure). Retention 0 concerns
 * content, which no job holds (docs/privacy.md).
 */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 60 * 60, count: 5_000 },
  removeOnFail: { age: 24 * 60 * 60, count: 10_000 },
};
