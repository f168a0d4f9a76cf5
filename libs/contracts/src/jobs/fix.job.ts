import { jobId } from './job-id';
import { isNonEmptyString, type JobRequest, type PayloadCheck } from './job-request';

/**
 * `fix.run`: compile one stored fix run's email and apply the requested tiers' fixes (POST /api/fix, MCP
 * fix_email). Like `preview.analyze` it carries only the run's id: the markup stays in PostgreSQL
 * (`fix_runs.source`), Redis never holds it, and a retry reads the same input. Runs on the `preview`
 * queue: the same compile processes and analysis threads do the work.
 */
export const FIX_JOB = {
  name: 'fix.run',
  queues: ['preview'],
  schemaVersion: 1,
} as const;

export interface FixJobPayload {
  schemaVersion: 1;
  fixRunId: string;
}

export interface FixJobResult {
  fixRunId: string;
  status: 'completed' | 'failed';
}

export const checkFixPayload: PayloadCheck = (data) => (isNonEmptyString(data.fixRunId) ? undefined : 'fixRunId must be a non-empty string');

/** The fix of one stored run; its id is the run's, so a second enqueue is a no-op. */
export function fixRunJob(fixRunId: string): JobRequest<'fix.run', FixJobPayload> {
  return { queue: 'preview', name: FIX_JOB.name, data: { schemaVersion: 1, fixRunId }, jobId: jobId(FIX_JOB.name, fixRunId) };
}
