import type { PayloadCheck } from './job-request';

/**
 * `drift-sweep.run`: produced by the scheduler's BullMQ job scheduler once per
 * DOMAIN_AUDIT_INTERVAL; fans out one `dns-audit.run` per monitored domain with a job id made of
 * the domain id and the window, so overlapping sweeps (two scheduler replicas) add each audit once.
 */
export const DRIFT_SWEEP_JOB = {
  name: 'drift-sweep.run',
  queues: ['scheduler'],
  schemaVersion: 1,
} as const;

export interface DriftSweepJobPayload {
  schemaVersion: 1;
}

export interface DriftSweepJobResult {
  window: string;
  domains: number;
  enqueued: number;
}

/**
 * The scheduling window a moment falls in, `<intervalMs>-<index>`: the same on every replica, so
 * it can make job ids and the per-window uniqueness of scheduled audits.
 */
export function auditWindow(at: number, intervalMs: number): string {
  return `${intervalMs}-${Math.floor(at / intervalMs)}`;
}

/** Only the envelope: the job carries nothing but its schemaVersion. */
export const checkDriftSweepPayload: PayloadCheck = () => undefined;
