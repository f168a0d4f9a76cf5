/**
 * `preview.analyse`: compile and analyse one stored preview. The markup stays in PostgreSQL
 * (`previews.source`); the job carries only the id, so Redis holds no 500 KB payloads and a retry
 * reads the same input. The worker writes the result to the row once (first writer wins).
 */
export const PREVIEW_JOB = {
  name: 'preview.analyse',
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
