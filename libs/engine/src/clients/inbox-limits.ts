import type { ClientId } from './email-client';

/** Gmail clips a message whose HTML passes this many bytes (the size report warns, Gmail's model hides the rest). */
export const GMAIL_CLIP_LIMIT_BYTES = 102 * 1024;

export interface InboxLimits {
  /** Characters of the subject the default inbox list shows before it cuts with an ellipsis. */
  subject: number;
  /** Characters of preview text (preheader) it shows; 0 when the list shows none at all. */
  preheader: number;
}

/**
 * What each client's default inbox list shows of subject and preview text, at a common window or phone
 * width. Measured approximations (proportional fonts vary); docs/reports.md lists them.
 */
export const INBOX_LIMITS: Readonly<Record<ClientId, InboxLimits>> = {
  'gmail-web': { subject: 70, preheader: 90 },
  'gmail-android': { subject: 40, preheader: 45 },
  'gmail-ios': { subject: 40, preheader: 45 },
  'outlook-web': { subject: 60, preheader: 90 },
  'outlook-windows': { subject: 60, preheader: 90 },
  'outlook-windows-legacy': { subject: 55, preheader: 35 },
  'outlook-macos': { subject: 55, preheader: 75 },
  'outlook-ios': { subject: 40, preheader: 90 },
  'outlook-android': { subject: 40, preheader: 90 },
  'apple-mail-macos': { subject: 78, preheader: 140 },
  'apple-mail-ios': { subject: 41, preheader: 90 },
  'yahoo-mail': { subject: 46, preheader: 100 },
  'yahoo-mail-ios': { subject: 40, preheader: 80 },
  'yahoo-mail-android': { subject: 40, preheader: 80 },
  aol: { subject: 46, preheader: 100 },
  'samsung-mail': { subject: 40, preheader: 70 },
  thunderbird: { subject: 80, preheader: 0 },
  protonmail: { subject: 60, preheader: 0 },
  fastmail: { subject: 60, preheader: 100 },
  'hey-mail': { subject: 50, preheader: 90 },
  superhuman: { subject: 50, preheader: 60 },
};
