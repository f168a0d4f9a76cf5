/**
 * The gate's `message` family (docs/gate.md, "The message check"): a whole message (`format: "eml"`) that is
 * bulk mail must meet the Gmail and Yahoo bulk-sender requirements its message report lists. Pure: it reads
 * the report's `bulkSender` checklist, which the preview worker built with the authentication lookups.
 */
import type { BulkSenderReport, BulkSenderRequirement, BulkSenderRequirementId } from '../message/message-report';

/** What the message check reads of a result: the report's checklist; null or absent for an email that is not a message. */
export interface GateMessageInput {
  bulkSender: BulkSenderReport;
}

/** An unmet bulk-sender requirement of bulk mail: it blocks the send. */
export interface BulkSenderFailure {
  family: 'message';
  check: 'bulk-sender';
  requirement: BulkSenderRequirementId;
  reason: string;
  fix: string | null;
}

/**
 * Why a check passed without judging everything: an email that is not a message, mail that is not bulk,
 * a requirement that could not be decided (a DNS lookup failed). Never blocks.
 */
/** A note of the message check (the verdict's `GateNote` is this or the visual check's). */
export interface MessageNote {
  family: 'message';
  check: 'bulk-sender';
  /** The requirement the note is about; absent when it is about the whole check. */
  requirement?: BulkSenderRequirementId;
  reason: string;
}

/** The checklist's requirement ids in the report's order (the OpenAPI document's enum). */
export const BULK_SENDER_REQUIREMENT_IDS: readonly BulkSenderRequirementId[] = [
  'spf-or-dkim',
  'spf-and-dkim',
  'dmarc-policy',
  'dmarc-alignment',
  'one-click-unsubscribe',
  'valid-from',
  'valid-message-id',
  'tls',
];

export const NOT_A_MESSAGE_REASON = 'not a message: nothing to check';
export const NOT_BULK_REASON = 'not bulk mail (no List-Unsubscribe header and the request did not say bulk: true): the bulk-sender requirements do not block';

export interface MessageCheckOutcome {
  failures: BulkSenderFailure[];
  notes: MessageNote[];
}

const failureOf = (requirement: BulkSenderRequirement): BulkSenderFailure => ({
  family: 'message',
  check: 'bulk-sender',
  requirement: requirement.id,
  reason: requirement.reason,
  fix: requirement.fix,
});

const noteOf = (requirement: BulkSenderRequirement): MessageNote => ({
  family: 'message',
  check: 'bulk-sender',
  requirement: requirement.id,
  reason: `could not be decided: ${requirement.reason}`,
});

/**
 * Bulk mail (the request's `bulk`, or the report's own judgement from List-Unsubscribe) fails on each
 * requirement with status `fail`, in the report's order; an `inconclusive` one is a note, never a failure
 * (a lookup that failed says nothing about the sender). `pass`, `warn` and `info` (TLS, which a message
 * file cannot show) are met or out of scope.
 */
export function messageCheck(message: GateMessageInput | null | undefined, bulkRequested: boolean): MessageCheckOutcome {
  if (!message) return { failures: [], notes: [{ family: 'message', check: 'bulk-sender', reason: NOT_A_MESSAGE_REASON }] };
  if (!bulkRequested && !message.bulkSender.bulk) return { failures: [], notes: [{ family: 'message', check: 'bulk-sender', reason: NOT_BULK_REASON }] };
  const requirements = message.bulkSender.requirements;
  return {
    failures: requirements.filter((requirement) => requirement.status === 'fail').map(failureOf),
    notes: requirements.filter((requirement) => requirement.status === 'inconclusive').map(noteOf),
  };
}
