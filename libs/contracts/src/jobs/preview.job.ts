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
}

export interface PreviewJobResult {
  previewId: string;
  status: 'completed' | 'failed';
}

export const checkPreviewPayload: PayloadCheck = (data) => (isNonEmptyString(data.previewId) ? undefined : 'previewId must be a non-empty string');

/** The analysis of one stored preview; its id is the preview's, so a second enqueue is a no-op. */
export function previewAnalyzeJob(previewId: string): JobRequest<'preview.analyze', PreviewJobPayload> {
  return { queue: 'preview', name: PREVIEW_JOB.name, data: { schemaVersion: 1, previewId }, jobId: jobId(PREVIEW_JOB.name, previewId) };
}
