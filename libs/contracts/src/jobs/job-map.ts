import type { QueueName } from '../queues';
import { PROBE_JOB, type ProbeJobPayload, type ProbeJobResult } from './probe.job';

/**
 * The typed job map: every job name with the queues it may run on and its payload/result
 * types. Producers call one typed `enqueue()` (libs/queue) that checks name, queue and payload.
 */
export interface JobMap {
  'probe.run': { payload: ProbeJobPayload; result: ProbeJobResult };
}
export type JobName = keyof JobMap;
export type JobPayload<N extends JobName> = JobMap[N]['payload'];
export type JobResult<N extends JobName> = JobMap[N]['result'];

export const JOB_DEFINITIONS: { [N in JobName]: { queues: readonly QueueName[]; schemaVersion: number } } = {
  [PROBE_JOB.name]: { queues: PROBE_JOB.queues, schemaVersion: PROBE_JOB.schemaVersion },
};

export function isJobName(value: string): value is JobName {
  return Object.prototype.hasOwnProperty.call(JOB_DEFINITIONS, value);
}
