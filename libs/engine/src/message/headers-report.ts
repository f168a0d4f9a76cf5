import { hasIcannSuffix, organizationalDomain } from './alignment';
import { MESSAGE_ID_FORM, type MessageFacts } from './message-facts';
import type { DkimSignatureCheck, MessageFinding, MessageHeadersReport } from './message-report';
import { oneClickSigning } from './one-click-signing';
import { messageFinding as finding } from './message-finding';

/** What the header rules read: the facts, and whether the message is judged bulk mail. */
export interface HeaderRuleContext {
  facts: MessageFacts;
  bulk: boolean;
  /** The DKIM verifications (the authentication report's); null when none were made. */
  dkim: readonly DkimSignatureCheck[] | null;
}

type HeaderRule = (context: HeaderRuleContext) => MessageFinding[];

/** Subjects past this many characters are cut in most inbox lists (Gmail's web list shows about 70 with the preheader). */
export const SUBJECT_LONG_CHARACTERS = 78;
/**
 * Past this many characters most inbox lists (web and mobile) cut the subject for certain. RFC 5322's 998 is per
 * line and a folded Subject may be longer, so length is a reader's problem (a warning), never a syntax error.
 */
export const SUBJECT_CUT_CHARACTERS = 100;

/** A header value in a finding's sentence, cut to a readable length (a hostile one may be kilobytes). */
function quoted(value: string): string {
  return value.length > 80 ? `${value.slice(0, 80)}...` : value;
}

const DOMAIN_AT_START = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+/i;

/**
 * The domains a display name names, in one linear pass (no regex that backtracks over a long run): words
 * with an `@` are addresses (their domain counts whatever its suffix), the others' dotted runs are bare names.
 */
export function namedDomains(name: string): { addressed: string[]; bare: string[] } {
  const addressed: string[] = [];
  const bare: string[] = [];
  for (const word of name.split(/[\s<>"]+/)) {
    const at = word.lastIndexOf('@');
    if (at >= 0) {
      const domain = at > 0 ? DOMAIN_AT_START.exec(word.slice(at + 1)) : null;
      if (domain) addressed.push(domain[0]);
      continue;
    }
    for (const run of word.split(/[^a-z0-9.-]+/i))
      for (const piece of run.split(/\.{2,}/)) {
        let start = 0;
        let end = piece.length;
        while (start < end && piece[start] === '.') start++;
        while (end > start && piece[end - 1] === '.') end--;
        const candidate = piece.slice(start, end);
        if (candidate.includes('.')) bare.push(candidate);
      }
  }
  return { addressed, bare };
}

/** RFC 5322 3.2.2 comments removed, nested ones included, in one pass; an unclosed comment runs to the end. */
export function stripComments(text: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && depth > 0) i++;
    else if (char === '(') depth++;
    else if (char === ')' && depth > 0) {
      depth--;
      if (depth === 0) out += ' ';
    } else if (depth === 0) out += char;
  }
  return out;
}

const fromRule: HeaderRule = ({ facts }) => {
  if (facts.fromFields.length === 0)
    return finding('from-missing', 'error', 'The message has no From header.', 'Add one From header with the sending address.');
  if (facts.fromFields.length > 1)
    return finding('from-multiple', 'error', `The message has ${facts.fromFields.length} From headers; RFC 5322 allows one.`, 'Keep exactly one From header.');
  if (facts.fromMailboxes.length !== 1)
    return finding(
      'from-multiple',
      'error',
      `The From header names ${facts.fromMailboxes.length} mailboxes; Gmail and Yahoo require exactly one.`,
      'Put exactly one address in From.',
    );
  if (!facts.from)
    return finding(
      'from-invalid',
      'error',
      `The From address "${quoted(facts.fromMailboxes[0].address)}" is not a valid address.`,
      'Use a local@domain address in From.',
    );
  return [];
};

/**
 * A display name that reads as an address or a domain of another organization ("paypal.com" <x@example.net>)
 * is how phishing passes a glance; mailbox providers score it as impersonation.
 */
const displayNameRule: HeaderRule = ({ facts }) => {
  const from = facts.from;
  if (!from || from.name === '') return [];
  // An address names its domain whatever its suffix; a bare name counts when it ends in a real (ICANN) suffix,
  // so "Node.js Weekly" or "Mr.Smith" are names, "paypal.com" is a domain.
  const { addressed, bare } = namedDomains(from.name);
  const other = [...addressed, ...bare.filter(hasIcannSuffix)]
    .map((domain) => domain.toLowerCase())
    .find((domain) => organizationalDomain(domain) !== organizationalDomain(from.domain));
  if (!other) return [];
  return finding(
    'from-display-name-impersonation',
    'error',
    `The From display name "${quoted(from.name)}" names ${other}, another domain than the address's ${from.domain}: mailbox providers treat this as impersonation.`,
    `Use a display name without a domain or address, or one of ${from.domain}.`,
  );
};

const replyToRule: HeaderRule = ({ facts }) => {
  const invalid = facts.replyTo.filter((mailbox) => !mailbox.valid);
  if (invalid.length > 0)
    return finding(
      'reply-to-invalid',
      'warning',
      `Reply-To has an invalid address "${quoted(invalid[0].address)}".`,
      'Use a local@domain address in Reply-To.',
    );
  const from = facts.from;
  const elsewhere = from
    ? facts.replyTo.find((mailbox) => mailbox.valid && organizationalDomain(mailbox.valid.domain) !== organizationalDomain(from.domain))
    : undefined;
  if (elsewhere?.valid) return finding('reply-to-other-domain', 'info', `Replies go to ${elsewhere.valid.domain}, another domain than From's.`, null);
  return [];
};

const dateRule: HeaderRule = ({ facts }) => {
  if (facts.date === null)
    return finding(
      'date-missing',
      'warning',
      'The message has no Date header (RFC 5322 requires one).',
      'Add a Date header, or make sure the sending system adds one.',
    );
  if (Number.isNaN(Date.parse(stripComments(facts.date).trim())))
    return finding(
      'date-invalid',
      'error',
      `The Date header "${quoted(facts.date)}" is not an RFC 5322 date.`,
      'Write the date as "Tue, 07 Oct 2025 09:30:00 +0000".',
    );
  return [];
};

const messageIdRule: HeaderRule = ({ facts }) => {
  if (facts.messageId === null)
    return finding(
      'message-id-missing',
      'warning',
      'The message has no Message-ID header; Gmail rejects mail without one unless the sending server adds it.',
      'Add a Message-ID such as <unique@your-domain>, or make sure the sending system adds one.',
    );
  if (!MESSAGE_ID_FORM.test(facts.messageId))
    return finding(
      'message-id-invalid',
      'error',
      `The Message-ID "${quoted(facts.messageId)}" is not in the <local@domain> form.`,
      'Write the Message-ID as <unique@your-domain>.',
    );
  return [];
};

const subjectRule: HeaderRule = ({ facts }) => {
  const subject = facts.message.subject;
  if (facts.rawSubject === null || subject === null)
    return finding('subject-missing', 'warning', 'The message has no Subject header.', 'Add a Subject that says what the message is about.');
  if (subject.trim() === '') return finding('subject-empty', 'warning', 'The Subject is empty.', 'Write a Subject that says what the message is about.');
  if (/[^\x00-\x7f]/.test(facts.rawSubject))
    return finding(
      'subject-raw-8bit',
      'warning',
      'The Subject has raw non-ASCII characters instead of RFC 2047 encoded words; some servers and clients garble them.',
      'Encode the Subject as =?UTF-8?B?...?= words (any MIME library does it).',
    );
  // Characters as a reader counts them: code points, so an emoji is one, not two UTF-16 units.
  const characters = [...subject].length;
  if (characters > SUBJECT_CUT_CHARACTERS)
    return finding(
      'subject-too-long',
      'warning',
      `The Subject is ${characters} characters; most inbox lists cut a subject past about ${SUBJECT_CUT_CHARACTERS} (Gmail's web list shows about 70 beside the preheader, phones 30-40).`,
      'Shorten the Subject and put what matters in the first 40-50 characters.',
    );
  if (characters > SUBJECT_LONG_CHARACTERS)
    return finding(
      'subject-long',
      'info',
      `The Subject is ${characters} characters; inbox lists cut it after about ${SUBJECT_LONG_CHARACTERS}.`,
      'Put what matters in the first 40-50 characters.',
    );
  return [];
};

const mimeVersionRule: HeaderRule = ({ facts }) =>
  facts.mimeVersion === null ? finding('mime-version-missing', 'warning', 'The message has no MIME-Version header.', 'Add "MIME-Version: 1.0".') : [];

const listUnsubscribeRule: HeaderRule = ({ facts, bulk }) => {
  const list = facts.listUnsubscribe;
  if (!list) {
    return bulk
      ? finding(
          'list-unsubscribe-missing',
          'error',
          'Bulk mail without List-Unsubscribe: Gmail and Yahoo require one-click unsubscribe from bulk senders.',
          'Add List-Unsubscribe: <https://...>, <mailto:...> and List-Unsubscribe-Post: List-Unsubscribe=One-Click.',
        )
      : [];
  }
  if (!list.https && !list.mailto)
    return finding(
      'list-unsubscribe-invalid',
      'error',
      'List-Unsubscribe has no <https:...> or <mailto:...> URI.',
      'Give an https URI (and a mailto one) in angle brackets.',
    );
  if (facts.listUnsubscribePost !== null && !list.oneClick)
    return finding(
      'list-unsubscribe-post-invalid',
      'error',
      `List-Unsubscribe-Post is "${quoted(facts.listUnsubscribePost)}"; RFC 8058 requires exactly "List-Unsubscribe=One-Click".`,
      'Write List-Unsubscribe-Post: List-Unsubscribe=One-Click.',
    );
  if (list.oneClick && !list.https)
    return finding(
      'list-unsubscribe-one-click-no-https',
      'error',
      'One-click unsubscribe (RFC 8058) needs an https URI in List-Unsubscribe; this header has none.',
      'Add an <https://...> URI that unsubscribes on a POST.',
    );
  if (!list.oneClick)
    return finding(
      'list-unsubscribe-no-one-click',
      bulk ? 'error' : 'warning',
      'List-Unsubscribe without List-Unsubscribe-Post: List-Unsubscribe=One-Click: Gmail and Yahoo require one-click unsubscribe (RFC 8058) from bulk senders.',
      list.https ? 'Add List-Unsubscribe-Post: List-Unsubscribe=One-Click.' : 'Add an https URI and List-Unsubscribe-Post: List-Unsubscribe=One-Click.',
    );
  return [];
};

/**
 * RFC 8058 3.1: the one-click headers must be covered by a DKIM signature that verifies, or receivers ignore them.
 * A signature that could not be verified (no lookups, a failed key lookup) is the authentication section's to say.
 */
const listUnsubscribeSignedRule: HeaderRule = ({ facts, dkim }) => {
  // Without an https URI there is no one-click to sign (list-unsubscribe-one-click-no-https says so).
  if (!facts.listUnsubscribe?.oneClick || !facts.listUnsubscribe.https) return [];
  const signing = oneClickSigning(facts, dkim);
  if (signing === 'unsigned-message')
    return finding(
      'list-unsubscribe-not-signed',
      'info',
      'The message carries no DKIM-Signature: RFC 8058 one-click works only when List-Unsubscribe and List-Unsubscribe-Post are signed (h=), which the sending system must do.',
      'Make sure your sending system signs List-Unsubscribe and List-Unsubscribe-Post with DKIM.',
    );
  if (signing === 'not-covered')
    return finding(
      'list-unsubscribe-not-signed',
      'error',
      "No DKIM-Signature's h= covers both List-Unsubscribe and List-Unsubscribe-Post, so receivers ignore one-click (RFC 8058 3.1).",
      'Add list-unsubscribe:list-unsubscribe-post to the h= of the DKIM signature.',
    );
  if (signing === 'not-verified')
    return finding(
      'list-unsubscribe-not-signed',
      'error',
      'The DKIM signature that covers List-Unsubscribe and List-Unsubscribe-Post does not verify, so receivers ignore one-click (RFC 8058 3.1).',
      'Sign the message again after the last change, with the published key.',
    );
  return [];
};

const notedRule: HeaderRule = ({ facts }) => [
  ...(facts.precedence ? finding('precedence-noted', 'info', `Precedence: ${quoted(facts.precedence)}.`, null) : []),
  ...(facts.feedbackId
    ? finding('feedback-id-noted', 'info', `Feedback-ID: ${quoted(facts.feedbackId)} (Gmail's feedback loop groups complaints by it).`, null)
    : []),
];

export const HEADER_RULES: readonly HeaderRule[] = [
  fromRule,
  displayNameRule,
  replyToRule,
  dateRule,
  messageIdRule,
  subjectRule,
  mimeVersionRule,
  listUnsubscribeRule,
  listUnsubscribeSignedRule,
  notedRule,
];

export function buildHeadersReport(context: HeaderRuleContext): MessageHeadersReport {
  const { facts } = context;
  return {
    from: facts.from,
    replyTo: facts.replyTo.flatMap((mailbox) => (mailbox.valid ? [mailbox.valid] : [])),
    date: facts.date,
    messageId: facts.messageId,
    subject: facts.message.subject,
    mimeVersion: facts.mimeVersion,
    returnPath: facts.returnPath ? facts.returnPath.address || null : null,
    listUnsubscribe: facts.listUnsubscribe,
    precedence: facts.precedence,
    feedbackId: facts.feedbackId,
    findings: HEADER_RULES.flatMap((rule) => rule(context)),
  };
}
