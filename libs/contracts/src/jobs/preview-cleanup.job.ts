import type { PayloadCheck } from './job-request';

/** `preview-cleanup.run`: deletes anonymous previews past their 24 hours, and fix runs past theirs (repeated by the scheduler). */
export const PREVIEW_CLEANUP_JOB = {
  name: 'preview-cleanup.run',
  queues: ['scheduler'],
  schemaVersion: 1,
} as const;

export interface PreviewCleanupJobPayload {
  schemaVersion: 1;
}

export interface PreviewCleanupJobResult {
  /** Previews deleted. */
  deleted: number;
  /** Fix runs deleted (POST /api/fix keeps each for the anonymous preview window). */
  fixRunsDeleted: number;
}

/** Only the envelope: the job carries nothing but its schemaVersion. */
export const checkPreviewCleanupPayload: PayloadCheck = () => undefined;
