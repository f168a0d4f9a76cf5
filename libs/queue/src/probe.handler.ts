import { hostname } from 'node:os';
import type { ProbeJobPayload, ProbeJobResult, QueueName } from '@mailproof/contracts';
import type { JobContext, JobHandler } from './job-handler';

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
 * Handles `probe.run` on any queue: optional simulated work, then one idempotent write (given by the
 * app, so this lib stays free of persistence code).
 */
export function probeJobHandler(record: (row: ProbeRecord) => Promise<void>): JobHandler<'probe.run'> {
  return {
    jobName: 'probe.run',
    async handle(payload: ProbeJobPayload, context: JobContext): Promise<ProbeJobResult> {
      const workMs = Math.min(Math.max(Number(payload.workMs ?? 0), 0), MAX_PROBE_WORK_MS);
      if (workMs > 0) await new Promise((resolve) => setTimeout(resolve, workMs));
      const processedAt = new Date();
      await record({ jobId: context.id, queue: context.queue, nonce: payload.nonce, workerId: WORKER_ID, processedAt });
      return { queue: context.queue, workerId: WORKER_ID, processedAt: processedAt.toISOString() };
    },
  };
}
