import type { AuthenticationVerdicts, AuthVerdict } from './authentication-report';
import { MESSAGE_ID_FORM, type MessageFacts } from './message-facts';
import type { BulkSenderReport, BulkSenderRequirement, BulkSenderRequirementId, DkimSignatureCheck, MessageCheckStatus } from './message-report';
import { oneClickSigning, type OneClickSigning } from './one-click-signing';

/** What the checklist reads: the header facts, the authentication verdicts and whether the mail is bulk. */
export interface BulkSenderContext {
  facts: MessageFacts;
  verdicts: AuthenticationVerdicts;
  bulk: boolean;
  /** The DKIM verifications (the authentication report's); null when none were made. */
  dkim: readonly DkimSignatureCheck[] | null;
}

type Requirement = (context: BulkSenderContext) => BulkSenderRequirement;

const BOTH: Array<'gmail' | 'yahoo'> = ['gmail', 'yahoo'];

function requirement(id: BulkSenderRequirementId, status: MessageCheckStatus, reason: string, fix: string | null, providers = BOTH): BulkSenderRequirement {
  return { id, providers, status, reason, fix: status === 'pass' || status === 'info' ? null : fix };
}

/**
 * A requirement of bulk senders only (5,000+ messages a day to Gmail): for other mail it is noted as info
 * with what it found, so the sender sees it without the checklist failing.
 */
function bulkOnly(context: BulkSenderContext, made: BulkSenderRequirement): BulkSenderRequirement {
  if (context.bulk) return made;
  return { ...made, status: 'info', reason: `bulk senders only; this message is not judged bulk (${made.status}: ${made.reason})`, fix: null };
}

const spfOrDkim: Requirement = ({ verdicts }) => {
  const { spf, dkim, reasons } = verdicts;
  const verdict: AuthVerdict =
    spf === 'pass' || dkim === 'pass' ? 'pass' : spf === 'inconclusive' || dkim === 'inconclusive' ? 'inconclusive' : dkim === 'warn' ? 'warn' : 'fail';
  return requirement('spf-or-dkim', verdict, `SPF: ${reasons.spf}; DKIM: ${reasons.dkim}`, 'Publish SPF for your sending servers and sign with DKIM.');
};

const spfAndDkim: Requirement = (context) => {
  const { spf, dkim, reasons } = context.verdicts;
  const both = [spf, dkim];
  const verdict: AuthVerdict = both.includes('fail') ? 'fail' : both.includes('inconclusive') ? 'inconclusive' : both.includes('warn') ? 'warn' : 'pass';
  return bulkOnly(
    context,
    requirement('spf-and-dkim', verdict, `SPF: ${reasons.spf}; DKIM: ${reasons.dkim}`, 'Bulk senders need both: publish SPF and sign with DKIM.'),
  );
};

const dmarcPolicy: Requirement = (context) =>
  bulkOnly(
    context,
    requirement(
      'dmarc-policy',
      context.verdicts.dmarc,
      context.verdicts.reasons.dmarc,
      'Publish a DMARC record at _dmarc.<your domain>: "v=DMARC1; p=none; rua=mailto:..." at least.',
    ),
  );

const dmarcAlignment: Requirement = (context) =>
  bulkOnly(
    context,
    requirement(
      'dmarc-alignment',
      context.verdicts.alignment,
      context.verdicts.reasons.alignment,
      'Sign with DKIM d= your From domain, or use a Return-Path (envelope sender) in your From domain.',
    ),
  );

const oneClickUnsubscribe: Requirement = (context) => {
  const list = context.facts.listUnsubscribe;
  const id = 'one-click-unsubscribe';
  let made: BulkSenderRequirement;
  if (!list)
    made = requirement(id, 'fail', 'no List-Unsubscribe header', 'Add List-Unsubscribe: <https://...> and List-Unsubscribe-Post: List-Unsubscribe=One-Click.');
  else if (!list.https || !list.oneClick)
    made = requirement(
      id,
      'fail',
      !list.https ? 'List-Unsubscribe has no https URI for a one-click POST' : 'List-Unsubscribe-Post: List-Unsubscribe=One-Click is missing',
      'Give an https URI in List-Unsubscribe and add List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058).',
    );
  else made = signedOneClick(oneClickSigning(context.facts, context.dkim));
  return bulkOnly(context, made);
};

function signedOneClick(signing: OneClickSigning): BulkSenderRequirement {
  const id = 'one-click-unsubscribe';
  switch (signing) {
    case 'signed':
      return requirement(id, 'pass', 'an https List-Unsubscribe with One-Click, both signed by a DKIM signature that verifies', null);
    case 'unsigned-message':
      return requirement(
        id,
        'warn',
        'one-click headers present; the message is not signed yet, and they count only when DKIM signs them',
        'Make sure the sending system signs List-Unsubscribe and List-Unsubscribe-Post.',
      );
    case 'not-covered':
      return requirement(id, 'fail', "the DKIM signature's h= does not cover List-Unsubscribe and List-Unsubscribe-Post", 'Sign both headers (h=).');
    case 'not-verified':
      return requirement(
        id,
        'fail',
        'the DKIM signature covering List-Unsubscribe and List-Unsubscribe-Post does not verify',
        'Sign the message again after the last change, with the published key.',
      );
    case 'inconclusive':
      return requirement(
        id,
        'inconclusive',
        'the DKIM signature covering List-Unsubscribe and List-Unsubscribe-Post could not be verified',
        'Check again shortly.',
      );
  }
}

const validFrom: Requirement = ({ facts }) =>
  facts.from
    ? requirement('valid-from', 'pass', `From is one valid address at ${facts.from.domain}`, null)
    : requirement(
        'valid-from',
        'fail',
        facts.fromFields.length === 0 ? 'no From header' : 'From is not exactly one valid address',
        'Put exactly one valid address in one From header.',
      );

const validMessageId: Requirement = ({ facts }) => {
  if (facts.messageId === null)
    return requirement('valid-message-id', 'warn', 'no Message-ID; the sending server must add one', 'Add a Message-ID <unique@your-domain>.');
  if (!MESSAGE_ID_FORM.test(facts.messageId))
    return requirement('valid-message-id', 'fail', 'the Message-ID is not in the <local@domain> form', 'Write the Message-ID as <unique@your-domain>.');
  return requirement('valid-message-id', 'pass', 'Message-ID is in the <local@domain> form', null);
};

const tls: Requirement = () =>
  requirement('tls', 'info', 'out of scope: a message file cannot show how it is transmitted (Gmail requires TLS between servers)', null);

export const BULK_SENDER_REQUIREMENTS: readonly Requirement[] = [
  spfOrDkim,
  spfAndDkim,
  dmarcPolicy,
  dmarcAlignment,
  oneClickUnsubscribe,
  validFrom,
  validMessageId,
  tls,
];

/**
 * The Gmail and Yahoo sender requirements (published for February 2024) as a checklist. Reasons say what is wrong
 * without quoting header values (domains only): they are copied into gate_summary and gate_runs.verdict, which
 * outlive the content purge. `met` is false when
 * a requirement fails, null when none fails but one could not be decided, true otherwise (warn and info count as met).
 */
export function buildBulkSenderReport(context: BulkSenderContext): BulkSenderReport {
  const requirements = BULK_SENDER_REQUIREMENTS.map((rule) => rule(context));
  const statuses = requirements.map((made) => made.status);
  return { bulk: context.bulk, requirements, met: statuses.includes('fail') ? false : statuses.includes('inconclusive') ? null : true };
}
