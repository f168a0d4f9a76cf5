import { jobId } from './job-id';
import { isNonEmptyString, type JobRequest, type PayloadCheck } from './job-request';

/**
 * The gate's job chain (docs/gate.md), one BullMQ flow per run, each step idempotent and reading its
 * input from PostgreSQL (the run row and its preview), never from another step's return value:
 *
 *   gate.import (url input only) -> preview.analyze -> links.resolve (resolveLinks only) -> gate.verdict
 *
 * A step that ends the run early (a declined URL, a compile failure) stores that outcome; the later
 * steps find it and do nothing, and gate.verdict reports it.
 */
export const GATE_IMPORT_JOB = { name: 'gate.import', queues: ['gate'], schemaVersion: 1 } as const;
export const GATE_VERDICT_JOB = { name: 'gate.verdict', queues: ['gate'], schemaVersion: 1 } as const;
export const LINKS_RESOLVE_JOB = { name: 'links.resolve', queues: ['link-check'], schemaVersion: 1 } as const;
/**
 * After the chain: a failed verdict's suggested fix (docs/gate.md, "Suggested fix"), added by gate.verdict
 * once the verdict is stored. On the `preview` queue: the fixes run in the analysis threads, and so they
 * take a preview slot as an analysis does instead of queueing in front of the analyses in the thread pool.
 */
export const GATE_SUGGEST_FIX_JOB = { name: 'gate.suggest-fix', queues: ['preview'], schemaVersion: 1 } as const;

export interface GateRunJobPayload {
  schemaVersion: 1;
  runId: string;
}

export interface LinksResolveJobPayload {
  schemaVersion: 1;
  runId: string;
  /** Epoch ms by which the links must be resolved: what is not done then is reported unchecked (budget). */
  deadline: number;
}

export interface GateImportJobResult {
  runId: string;
  imported: boolean;
}

export interface LinksResolveJobResult {
  runId: string;
  checked: number;
  unchecked: number;
}

export interface GateVerdictJobResult {
  runId: string;
  status: 'completed' | 'failed';
  passed: boolean | null;
}

export interface GateSuggestFixJobResult {
  runId: string;
  /** Findings the safe fixes resolve; null when none, or when the run has nothing to suggest (passed, already settled). */
  fixable: number | null;
  /**
   * Where it was computed: by the run's analysis, from its own findings, in this process (`analysis`), or by this job
   * (`follow-up`: the analysis did not go on to it or ran in another process). Absent when nothing was computed.
   */
  computedBy?: 'analysis' | 'follow-up';
}

export const checkGateRunPayload: PayloadCheck = (data) => (isNonEmptyString(data.runId) ? undefined : 'runId must be a non-empty string');

export const checkLinksResolvePayload: PayloadCheck = (data) =>
  checkGateRunPayload(data) ?? (typeof data.deadline === 'number' && Number.isFinite(data.deadline) ? undefined : 'deadline must be a number');

export function gateImportJob(runId: string): JobRequest<'gate.import', GateRunJobPayload> {
  return { queue: 'gate', name: GATE_IMPORT_JOB.name, data: { schemaVersion: 1, runId }, jobId: jobId(GATE_IMPORT_JOB.name, runId) };
}

export function gateVerdictJob(runId: string): JobRequest<'gate.verdict', GateRunJobPayload> {
  return { queue: 'gate', name: GATE_VERDICT_JOB.name, data: { schemaVersion: 1, runId }, jobId: jobId(GATE_VERDICT_JOB.name, runId) };
}

export function linksResolveJob(runId: string, deadline: number): JobRequest<'links.resolve', LinksResolveJobPayload> {
  return { queue: 'link-check', name: LINKS_RESOLVE_JOB.name, data: { schemaVersion: 1, runId, deadline }, jobId: jobId(LINKS_RESOLVE_JOB.name, runId) };
}

/** A failed run's suggested fix; its id is the run's, so the verdict step's redelivery adds it once. */
export function gateSuggestFixJob(runId: string): JobRequest<'gate.suggest-fix', GateRunJobPayload> {
  return { queue: 'preview', name: GATE_SUGGEST_FIX_JOB.name, data: { schemaVersion: 1, runId }, jobId: jobId(GATE_SUGGEST_FIX_JOB.name, runId) };
}
