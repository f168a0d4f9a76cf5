import { GATE_CHECK_FAMILIES, type GateCheckFamily } from '@mailproof/engine';
import { jobId } from './job-id';
import { isNonEmptyString, type JobRequest, type PayloadCheck } from './job-request';

/**
 * `preview.analyze`: compile and analyze one stored preview. The markup stays in PostgreSQL
 * (`previews.source`); the job carries only the id, so Redis holds no 500 KB payloads and a retry
 * reads the same input. The worker writes the result to the row once (first writer wins).
 */
export const PREVIEW_JOB = {
  name: 'preview.analyze',
  queues: ['preview'],
  schemaVersion: 1,
} as const;

export interface PreviewJobPayload {
  schemaVersion: 1;
  previewId: string;
  /**
   * A gate run's `bulk: true`: the message report judges the message bulk mail even without List-Unsubscribe
   * (`bulkSender.bulk`). An option, never the source; absent means false.
   */
  bulk?: true;
  /**
   * A gate run's verdict options that the analysis alone can judge (its threshold, failOnError and families; the
   * clients are the preview's). When they fail the email already, the analysis thread goes on to the run's
   * suggested fix from its own analysis, once the result is stored (docs/gate.md, "Suggested fix"). Absent for a
   * preview; an older worker ignores it, and a run without it computes the suggestion in its follow-up job.
   */
  gate?: PreviewGateOptions;
}

export interface PreviewGateOptions {
  threshold: number;
  failOnError: boolean;
  checks: GateCheckFamily[];
}

export interface PreviewJobResult {
  previewId: string;
  status: 'completed' | 'failed';
}

export const checkPreviewPayload: PayloadCheck = (data) => {
  if (!isNonEmptyString(data.previewId)) return 'previewId must be a non-empty string';
  if (data.bulk !== undefined && data.bulk !== true) return 'bulk must be true when present';
  return data.gate === undefined ? undefined : checkGateOptions(data.gate);
};

function checkGateOptions(gate: unknown): string | undefined {
  const options = gate as Partial<Record<keyof PreviewGateOptions, unknown>> | null;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return 'gate must be an object when present';
  if (typeof options.threshold !== 'number' || !(options.threshold >= 0 && options.threshold <= 100)) return 'gate.threshold must be a number from 0 to 100';
  if (typeof options.failOnError !== 'boolean') return 'gate.failOnError must be a boolean';
  const families: readonly unknown[] = GATE_CHECK_FAMILIES;
  if (!Array.isArray(options.checks) || !options.checks.every((family) => families.includes(family))) return 'gate.checks must list gate check families';
  return undefined;
}

/**
 * The analysis of one stored preview; its id is the preview's, so a second enqueue while it waits is a no-op. Done,
 * it leaves Redis at once (the API hears its `completed` event and reads the result from PostgreSQL): a later
 * enqueue of the same preview runs once more and finds it analyzed (PreviewAnalysisService), one PostgreSQL read.
 */
export function previewAnalyzeJob(
  previewId: string,
  options: { bulk?: boolean; gate?: PreviewGateOptions } = {},
): JobRequest<'preview.analyze', PreviewJobPayload> {
  const gate = options.gate ? { threshold: options.gate.threshold, failOnError: options.gate.failOnError, checks: [...options.gate.checks] } : undefined;
  const data: PreviewJobPayload = { schemaVersion: 1, previewId, ...(options.bulk ? { bulk: true as const } : {}), ...(gate ? { gate } : {}) };
  return { queue: 'preview', name: PREVIEW_JOB.name, data, jobId: jobId(PREVIEW_JOB.name, previewId), removeWhenComplete: true };
}
