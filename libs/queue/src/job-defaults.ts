import type { JobsOptions } from 'bullmq';

/**
 * Defaults for every job: retried with exponential backoff, and kept for a while after it ends
 * (never removeOnComplete: true) so a waiting API request can still read its result.
 */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 60 * 60, count: 5_000 },
  removeOnFail: { age: 7 * 24 * 60 * 60, count: 10_000 },
};
