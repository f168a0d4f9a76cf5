import { createHash } from 'node:crypto';

/**
 * Deterministic BullMQ job id from a job name and the parts that identify one unit of work.
 * BullMQ uses ':' as its key separator and refuses integer-like custom ids, so the id always
 * starts with the job name and every character outside [A-Za-z0-9._-] becomes '_'. Long ids are
 * shortened with a hash so they stay readable and unique.
 */
export function jobId(jobName: string, ...parts: Array<string | number>): string {
  const clean = (value: string | number) => String(value).replace(/[^A-Za-z0-9._-]/g, '_');
  const joined = [clean(jobName), ...parts.map(clean)].join('-');
  // A name made only of digits (and no parts) would be integer-like, which BullMQ refuses.
  const id = /^\d+$/.test(joined) ? `job-${joined}` : joined;
  if (id.length <= 200) return id;
  const digest = createHash('sha256').update(id).digest('hex').slice(0, 32);
  return `${id.slice(0, 160)}-${digest}`;
}
