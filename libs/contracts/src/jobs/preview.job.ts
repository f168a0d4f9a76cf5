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
}

export interface PreviewJobResult {
  previewId: string;
  status: 'completed' | 'failed';
}

export const checkPreviewPayload: PayloadCheck = (data) => {
  if (!isNonEmptyString(data.previewId)) return 'previewId must be a non-empty string';
  return data.bulk === undefined || data.bulk === true ? undefined : 'bulk must be true when present';
};

/**
 * The analysis of one stored preview; its id is the preview's, so a second enqueue while it waits is a no-op. Done,
 * it leaves Redis at once (the API hears its `completed` event and reads the result from PostgreSQL): a later
 * enqueue of the same preview runs once more and finds it analyzed (PreviewAnalysisService), one PostgreSQL read.
 */
export function previewAnalyzeJob(previewId: string, options: { bulk?: boolean } = {}): JobRequest<'preview.analyze', PreviewJobPayload> {
  const data: PreviewJobPayload = { schemaVersion: 1, previewId, ...(options.bulk ? { bulk: true as const } : {}) };
  return { queue: 'preview', name: PREVIEW_JOB.name, data, jobId: jobId(PREVIEW_JOB.name, previewId), removeWhenComplete: true };
}
