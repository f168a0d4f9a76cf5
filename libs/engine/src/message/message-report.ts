/**
 * The shape of `messageReport`: what Mailproof finds in a whole message (`format: "eml"`, docs/messages.md)
 * beside its HTML part. The engine builds `headers`, `parts` and `bulkSender` from the parsed message; the
 * preview worker supplies the DNS-backed `authentication` (the From domain's audit and the DKIM check) and the
 * engine folds it into `bulkSender`.
 */

import type { MessagePart } from '../parse/parsed-message';

/** pass: met; fail: not met; warn: met with a caveat; info: noted only; inconclusive: could not be decided (a DNS lookup failed). */
export type MessageCheckStatus = 'pass' | 'warn' | 'fail' | 'info' | 'inconclusive';

/** One finding about the message: `rule` is a stable kebab-case id (`from-missing`, `list-unsubscribe-no-one-click`). */
export interface MessageFinding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** What to change, in one sentence; null when there is nothing to do. */
  fix: string | null;
}

export interface MessageAddress {
  address: string;
  /** The decoded display name; '' when none. */
  name: string;
  /** The address's domain, lower case ASCII (IDN labels as Punycode A-labels), as DNS is asked for it. */
  domain: string;
}

export interface ListUnsubscribe {
  /** Every URI of the header, in order. */
  uris: string[];
  https: string | null;
  mailto: string | null;
  /** `List-Unsubscribe-Post: List-Unsubscribe=One-Click` is present (RFC 8058). */
  oneClick: boolean;
}

export interface MessageHeadersReport {
  from: MessageAddress | null;
  replyTo: MessageAddress[];
  /** The Date header as written; null when missing. */
  date: string | null;
  messageId: string | null;
  /** The decoded subject; null when missing. */
  subject: string | null;
  mimeVersion: string | null;
  /** The envelope sender as the message records it (Return-Path); null when absent. */
  returnPath: string | null;
  listUnsubscribe: ListUnsubscribe | null;
  precedence: string | null;
  feedbackId: string | null;
  findings: MessageFinding[];
}

export interface MessagePartsReport {
  /** The HTML part analysed as the email (its decoded size); null when the message has none. */
  html: { path: string; bytes: number; charset: string | null; clippedByGmail: boolean } | null;
  /** The text/plain alternative; `similarity` 0-1 to the HTML part's visible text. */
  text: { path: string; bytes: number; similarity: number } | null;
  attachments: MessagePart[];
  inlineImages: Array<MessagePart & { referenced: boolean }>;
  /** `cid:` references in the HTML that no part answers. */
  unresolvedCids: string[];
  findings: MessageFinding[];
}

export type DkimVerification = 'pass' | 'fail' | 'neutral' | 'temperror' | 'permerror';

export interface DkimSignatureCheck {
  domain: string;
  selector: string;
  /** pass/fail: verified against the published key; neutral: not verifiable (no key published); temperror: the lookup failed. */
  result: DkimVerification;
  /** d= aligned with the From domain under the DMARC policy's adkim mode. */
  aligned: boolean;
  message: string;
}

export interface MessageAuthenticationReport {
  status: MessageCheckStatus;
  /** The From header's domain; null when there is no valid From. */
  fromDomain: string | null;
  /** The audit's SPF, DKIM (for the signature's selector) and DMARC checks of the From domain; null when no audit was made. */
  audit: { spf: string; dkim: string; dmarc: string; score: number | null } | null;
  dmarc: { policy: string; adkim: 'r' | 's'; aspf: 'r' | 's' } | null;
  dkim: DkimSignatureCheck[];
  /** The envelope (Return-Path) domain aligned with From under aspf; null when the message records no envelope sender. */
  spfAligned: boolean | null;
  findings: MessageFinding[];
}

export type BulkSenderRequirementId =
  'spf-or-dkim' | 'spf-and-dkim' | 'dmarc-policy' | 'dmarc-alignment' | 'one-click-unsubscribe' | 'valid-from' | 'valid-message-id' | 'tls';

export interface BulkSenderRequirement {
  id: BulkSenderRequirementId;
  /** Whose published requirement it is. */
  providers: Array<'gmail' | 'yahoo'>;
  /** pass/fail; inconclusive when the authentication lookups failed; info for what the message cannot show (TLS). */
  status: MessageCheckStatus;
  reason: string;
  fix: string | null;
}

export interface BulkSenderReport {
  /** Judged as bulk mail: the request said so (`bulk: true`) or the message carries List-Unsubscribe. */
  bulk: boolean;
  requirements: BulkSenderRequirement[];
  /** false when a requirement fails; null when none fails but one is inconclusive; true otherwise (warn and info count as met). */
  met: boolean | null;
}

export interface MessageReport {
  headers: MessageHeadersReport;
  parts: MessagePartsReport;
  authentication: MessageAuthenticationReport;
  bulkSender: BulkSenderReport;
}
