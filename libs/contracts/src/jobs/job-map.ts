import type { QueueName } from '../queues';
import { checkDnsAuditPayload, DNS_AUDIT_JOB, type DnsAuditJobPayload, type DnsAuditJobResult } from './dns-audit.job';
import { checkDriftSweepPayload, DRIFT_SWEEP_JOB, type DriftSweepJobPayload, type DriftSweepJobResult } from './drift-sweep.job';
import {
  checkGateRunPayload,
  checkLinksResolvePayload,
  GATE_IMPORT_JOB,
  GATE_SUGGEST_FIX_JOB,
  GATE_VERDICT_JOB,
  LINKS_RESOLVE_JOB,
  type GateImportJobResult,
  type GateRunJobPayload,
  type GateSuggestFixJobResult,
  type GateVerdictJobResult,
  type LinksResolveJobPayload,
  type LinksResolveJobResult,
} from './gate.job';
import { checkFixPayload, FIX_JOB, type FixJobPayload, type FixJobResult } from './fix.job';
import { checkPayloadEnvelope, type PayloadCheck } from './job-request';
import { checkPreviewCleanupPayload, PREVIEW_CLEANUP_JOB, type PreviewCleanupJobPayload, type PreviewCleanupJobResult } from './preview-cleanup.job';
import { checkPreviewPayload, PREVIEW_JOB, type PreviewJobPayload, type PreviewJobResult } from './preview.job';
import { checkProbePayload, PROBE_JOB, type ProbeJobPayload, type ProbeJobResult } from './probe.job';
import { checkRenderScreenshotsPayload, RENDER_SCREENSHOTS_JOB, type RenderScreenshotsJobPayload, type RenderScreenshotsJobResult } from './render.job';
import {
  checkWebhookDeliverPayload,
  checkWebhookRelayPayload,
  WEBHOOK_DELIVER_JOB,
  WEBHOOK_RELAY_JOB,
  type WebhookDeliverJobPayload,
  type WebhookDeliverJobResult,
  type WebhookRelayJobPayload,
  type WebhookRelayJobResult,
} from './webhook.job';

/**
 * The typed job map: every job name with the queues it may run on and its payload/result
 * types. Producers call one typed `enqueue()` (libs/queue) that checks name, queue and payload.
 */
export interface JobMap {
  'probe.run': { payload: ProbeJobPayload; result: ProbeJobResult };
  'preview.analyze': { payload: PreviewJobPayload; result: PreviewJobResult };
  'fix.run': { payload: FixJobPayload; result: FixJobResult };
  'preview-cleanup.run': { payload: PreviewCleanupJobPayload; result: PreviewCleanupJobResult };
  'dns-audit.run': { payload: DnsAuditJobPayload; result: DnsAuditJobResult };
  'drift-sweep.run': { payload: DriftSweepJobPayload; result: DriftSweepJobResult };
  'gate.import': { payload: GateRunJobPayload; result: GateImportJobResult };
  'links.resolve': { payload: LinksResolveJobPayload; result: LinksResolveJobResult };
  'gate.verdict': { payload: GateRunJobPayload; result: GateVerdictJobResult };
  'gate.suggest-fix': { payload: GateRunJobPayload; result: GateSuggestFixJobResult };
  'render.screenshots': { payload: RenderScreenshotsJobPayload; result: RenderScreenshotsJobResult };
  'webhook.deliver': { payload: WebhookDeliverJobPayload; result: WebhookDeliverJobResult };
  'webhook-relay.run': { payload: WebhookRelayJobPayload; result: WebhookRelayJobResult };
}
export type JobName = keyof JobMap;
export type JobPayload<N extends JobName> = JobMap[N]['payload'];
export type JobResult<N extends JobName> = JobMap[N]['result'];

export interface JobDefinition {
  queues: readonly QueueName[];
  schemaVersion: number;
  /** Checks a payload beyond its envelope (object + schemaVersion); consumers refuse what fails it. */
  checkPayload: PayloadCheck;
}

export const JOB_DEFINITIONS: { [N in JobName]: JobDefinition } = {
  [PROBE_JOB.name]: { queues: PROBE_JOB.queues, schemaVersion: PROBE_JOB.schemaVersion, checkPayload: checkProbePayload },
  [PREVIEW_JOB.name]: { queues: PREVIEW_JOB.queues, schemaVersion: PREVIEW_JOB.schemaVersion, checkPayload: checkPreviewPayload },
  [FIX_JOB.name]: { queues: FIX_JOB.queues, schemaVersion: FIX_JOB.schemaVersion, checkPayload: checkFixPayload },
  [PREVIEW_CLEANUP_JOB.name]: {
    queues: PREVIEW_CLEANUP_JOB.queues,
    schemaVersion: PREVIEW_CLEANUP_JOB.schemaVersion,
    checkPayload: checkPreviewCleanupPayload,
  },
  [DNS_AUDIT_JOB.name]: { queues: DNS_AUDIT_JOB.queues, schemaVersion: DNS_AUDIT_JOB.schemaVersion, checkPayload: checkDnsAuditPayload },
  [DRIFT_SWEEP_JOB.name]: { queues: DRIFT_SWEEP_JOB.queues, schemaVersion: DRIFT_SWEEP_JOB.schemaVersion, checkPayload: checkDriftSweepPayload },
  [GATE_IMPORT_JOB.name]: { queues: GATE_IMPORT_JOB.queues, schemaVersion: GATE_IMPORT_JOB.schemaVersion, checkPayload: checkGateRunPayload },
  [LINKS_RESOLVE_JOB.name]: { queues: LINKS_RESOLVE_JOB.queues, schemaVersion: LINKS_RESOLVE_JOB.schemaVersion, checkPayload: checkLinksResolvePayload },
  [GATE_VERDICT_JOB.name]: { queues: GATE_VERDICT_JOB.queues, schemaVersion: GATE_VERDICT_JOB.schemaVersion, checkPayload: checkGateRunPayload },
  [GATE_SUGGEST_FIX_JOB.name]: { queues: GATE_SUGGEST_FIX_JOB.queues, schemaVersion: GATE_SUGGEST_FIX_JOB.schemaVersion, checkPayload: checkGateRunPayload },
  [RENDER_SCREENSHOTS_JOB.name]: {
    queues: RENDER_SCREENSHOTS_JOB.queues,
    schemaVersion: RENDER_SCREENSHOTS_JOB.schemaVersion,
    checkPayload: checkRenderScreenshotsPayload,
  },
  [WEBHOOK_DELIVER_JOB.name]: {
    queues: WEBHOOK_DELIVER_JOB.queues,
    schemaVersion: WEBHOOK_DELIVER_JOB.schemaVersion,
    checkPayload: checkWebhookDeliverPayload,
  },
  [WEBHOOK_RELAY_JOB.name]: { queues: WEBHOOK_RELAY_JOB.queues, schemaVersion: WEBHOOK_RELAY_JOB.schemaVersion, checkPayload: checkWebhookRelayPayload },
};

/** The jobs that may run on a queue: a consumer of the queue must handle every one. */
export function jobsOfQueue(queue: QueueName): JobName[] {
  return (Object.keys(JOB_DEFINITIONS) as JobName[]).filter((name) => JOB_DEFINITIONS[name].queues.includes(queue));
}

/** Why `data` is not a valid payload of job `name`, or undefined when it is. */
export function payloadProblem(name: JobName, data: unknown): string | undefined {
  const definition = JOB_DEFINITIONS[name];
  return checkPayloadEnvelope(data, definition.schemaVersion) ?? definition.checkPayload(data as Record<string, unknown>);
}

export function isJobName(value: string): value is JobName {
  return Object.prototype.hasOwnProperty.call(JOB_DEFINITIONS, value);
}
