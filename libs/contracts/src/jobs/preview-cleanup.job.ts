import type { PayloadCheck } from './job-request';

/**
 * `preview-cleanup.run`: deletes anonymous previews past their 24 hours and fix runs past theirs, and sweeps what is past its
 * account's retention (repeated by the scheduler at least hourly; docs/privacy.md).
 */
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
  /** Previews whose source and rendered markup went (retention or retain: false); the row and its scores stay. */
  previewsPurged: number;
  /** Fix runs deleted for retention or retain: false (beside fixRunsDeleted). */
  fixRunsRetentionDeleted: number;
  /** Webhook events (with their delivery logs) past their account's retention. */
  webhookEventsDeleted: number;
  /** Screenshots no preview shows any more. */
  screenshotImagesDeleted: number;
  /** Anonymous days' data keys destroyed once everything they sealed had expired (docs/privacy.md, crypto-shredding). */
  anonymousDataKeysShredded: number;
}

/** Only the envelope: the job carries nothing but its schemaVersion. */
export const checkPreviewCleanupPayload: PayloadCheck = () => undefined;
