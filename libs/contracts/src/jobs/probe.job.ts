import { QUEUE_NAMES, type QueueName } from '../queues';
import { jobId } from './job-id';
import { isNonEmptyString, type JobRequest, type PayloadCheck } from './job-request';

/**
 * `probe.run`: the smallest real job. Any worker app consumes it from its own queue, records
 * that it ran in PostgreSQL (table job_probes) and returns where it ran. The API's diagnostics
 * round trip and the readiness tests use it to prove API -> Redis -> worker -> PostgreSQL works.
 */
export const PROBE_JOB = {
  name: 'probe.run',
  queues: QUEUE_NAMES,
  schemaVersion: 1,
} as const;

export interface ProbeJobPayload {
  schemaVersion: 1;
  /** Random value the caller can look for in PostgreSQL afterwards. */
  nonce: string;
  /** Simulated work, so shutdown tests can catch a job in flight. Capped at 30 s by the worker. */
  workMs?: number;
}

export interface ProbeJobResult {
  queue: QueueName;
  workerId: string;
  processedAt: string;
}

export const checkProbePayload: PayloadCheck = (data) => {
  if (!isNonEmptyString(data.nonce)) return 'nonce must be a non-empty string';
  if (data.workMs !== undefined && (typeof data.workMs !== 'number' || !Number.isFinite(data.workMs))) return 'workMs must be a number';
  return undefined;
};

/** A probe on one queue, identified by its nonce. */
export function probeJob(queue: QueueName, nonce: string, workMs?: number): JobRequest<'probe.run', ProbeJobPayload> {
  const data: ProbeJobPayload = workMs === undefined ? { schemaVersion: 1, nonce } : { schemaVersion: 1, nonce, workMs };
  return { queue, name: PROBE_JOB.name, data, jobId: jobId(PROBE_JOB.name, nonce) };
}
