import { UnrecoverableError, type Job } from 'bullmq';
import { hostname } from 'node:os';
import type { ProbeJobPayload, ProbeJobResult, QueueName } from '@mailproof/contracts';

export const WORKER_ID = `${hostname()}-${process.pid}`;
const MAX_PROBE_WORK_MS = 30_000;

export interface ProbeRecord {
  jobId: string;
  queue: QueueName;
  nonce: string;
  workerId: string;
  processedAt: Date;
}

/**
 * Processes a `probe.run` job on any queue: optional simulated work, then one idempotent
 * write (given by the caller, so this lib stays free of persistence code).
 */
export async function handleProbeJob(
  job: Job<ProbeJobPayload>,
  queue: QueueName,
  record: (row: ProbeRecord) => Promise<void>,
): Promise<ProbeJobResult> {
  if (job.data?.schemaVersion !== 1 || typeof job.data.nonce !== 'string') {
    throw new UnrecoverableError(`probe.run: unsupported payload (schemaVersion ${String(job.data?.schemaVersion)})`);
  }
  const workMs = Math.min(Math.max(Number(job.data.workMs ?? 0), 0), MAX_PROBE_WORK_MS);
  if (workMs > 0) await new Promise((resolve) => setTimeout(resolve, workMs));
  const processedAt = new Date();
  await record({ jobId: String(job.id), queue, nonce: job.data.nonce, workerId: WORKER_ID, processedAt });
  return { queue, workerId: WORKER_ID, processedAt: processedAt.toISOString() };
}
