import { evaluateAuthentication, type MessageAuthenticationInput } from './authentication-report';
import { buildBulkSenderReport } from './bulk-sender-report';
import { buildHeadersReport } from './headers-report';
import { readMessageFacts } from './message-facts';
import type { MessageReport } from './message-report';
import type { ParsedMessage } from '../parse/parsed-message';
import { buildPartsReport } from './parts-report';

export interface MessageReportOptions {
  /** The HTML part's visible text (the plain-text report's `text`); null skips the text alternative's similarity. */
  htmlText: string | null;
  /** The request says the message is bulk mail (the gate's `bulk: true`); List-Unsubscribe makes it bulk anyway. */
  bulk?: boolean;
  /** The lookups the worker made (authenticationPlan); null when none were made: authentication is then inconclusive. */
  authentication: MessageAuthenticationInput | null;
  /** Why no lookups were made when `authentication` is null (the report's reason); a local analysis by default. */
  uncheckedReason?: string;
}

/** The message report of a parsed message (docs/messages.md): headers, parts, authentication and the bulk-sender checklist. */
export function buildMessageReport(message: ParsedMessage, options: MessageReportOptions): MessageReport {
  const facts = readMessageFacts(message);
  const bulk = options.bulk === true || facts.listUnsubscribe !== null;
  const { report: authentication, verdicts } = evaluateAuthentication(facts, options.authentication, options.uncheckedReason);
  // The DKIM verifications the one-click check reads; null when none were made (no lookups, no usable From audit).
  const dkim = options.authentication && authentication.audit ? authentication.dkim : null;
  return {
    headers: buildHeadersReport({ facts, bulk, dkim }),
    parts: buildPartsReport(message, options.htmlText),
    authentication,
    bulkSender: buildBulkSenderReport({ facts, verdicts, bulk, dkim }),
  };
}
