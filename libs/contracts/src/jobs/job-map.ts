import type { QueueName } from '../queues';
import { DNS_AUDIT_JOB, type DnsAuditJobPayload, type DnsAuditJobResult } from './dns-audit.job';
import { DOMAIN_SWEEP_JOB, type DomainSweepJobPayload, type DomainSweepJobResult } from './domain-sweep.job';
import { PREVIEW_CLEANUP_JOB, type PreviewCleanupJobPayload, type PreviewCleanupJobResult } from './preview-cleanup.job';
import { PREVIEW_JOB, type PreviewJobPayload, type PreviewJobResult } from './preview.job';
import { PROBE_JOB, type ProbeJobPayload, type ProbeJobResult } from './probe.job';

/**
 * The typed job map: every job name with the queues it may run on and its payload/result
 * types. Producers call one typed `enqueue()` (libs/queue) that checks name, queue and payload.
 */
export interface JobMap {
  'probe.run': { payload: ProbeJobPayload; result: ProbeJobResult };
  'preview.analyse': { payload: PreviewJobPayload; result: PreviewJobResult };
  'preview-cleanup.run': { payload: PreviewCleanupJobPayload; result: PreviewCleanupJobResult };
  'dns-audit.run': { payload: DnsAuditJobPayload; result: DnsAuditJobResult };
  'domain-sweep.run': { payload: DomainSweepJobPayload; result: DomainSweepJobResult };
}
export type JobName = keyof JobMap;
export type JobPayload<N extends JobName> = JobMap[N]['payload'];
export type JobResult<N extends JobName> = JobMap[N]['result'];

export const JOB_DEFINITIONS: { [N in JobName]: { queues: readonly QueueName[]; schemaVersion: number } } = {
  [PROBE_JOB.name]: { queues: PROBE_JOB.queues, schemaVersion: PROBE_JOB.schemaVersion },
  [PREVIEW_JOB.name]: { queues: PREVIEW_JOB.queues, schemaVersion: PREVIEW_JOB.schemaVersion },
  [PREVIEW_CLEANUP_JOB.name]: { queues: PREVIEW_CLEANUP_JOB.queues, schemaVersion: PREVIEW_CLEANUP_JOB.schemaVersion },
  [DNS_AUDIT_JOB.name]: { queues: DNS_AUDIT_JOB.queues, schemaVersion: DNS_AUDIT_JOB.schemaVersion },
  [DOMAIN_SWEEP_JOB.name]: { queues: DOMAIN_SWEEP_JOB.queues, schemaVersion: DOMAIN_SWEEP_JOB.schemaVersion },
};

export function isJobName(value: string): value is JobName {
  return Object.prototype.hasOwnProperty.call(JOB_DEFINITIONS, value);
}
