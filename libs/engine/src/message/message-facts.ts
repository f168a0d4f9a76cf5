import PostalMime from 'postal-mime';
import { normalizeDomain } from '../dns/normalize-domain';
import { parseTagList } from '../dns/tag-list';
import type { ListUnsubscribe, MessageAddress } from './message-report';
import type { ParsedMessage } from '../parse/parsed-message';
import { headerValue } from './scan-message';

/** A Message-ID in the RFC 5322 3.6.4 `<local@domain>` form (the header rule and the checklist read it). */
export const MESSAGE_ID_FORM = /^<[^<>@\s]+@[^<>@\s]+>$/;

/** One mailbox of an address header as written: the address may be invalid. */
export interface WrittenMailbox {
  address: string;
  name: string;
  /** The checked form; null when the address is not `local@domain` with a valid domain. */
  valid: MessageAddress | null;
}

/** A DKIM-Signature field's tags the report needs (RFC 6376 3.5). */
export interface DkimSignatureTags {
  /** The signing domain (d=), lower case ASCII; '' when missing or invalid. */
  domain: string;
  selector: string;
  /** The signed header names (h=), lower case, in order. */
  signedHeaders: string[];
}

/**
 * What the header and bulk-sender rules read, extracted once from the top-level fields: every rule is a
 * small function of these facts, so none of them parses a header again.
 */
export interface MessageFacts {
  message: ParsedMessage;
  /** The From fields' values (RFC 5322 allows exactly one). */
  fromFields: string[];
  /** Mailboxes of the first From field (groups flattened). */
  fromMailboxes: WrittenMailbox[];
  /** The single valid From address; null when there is none or more than one. */
  from: MessageAddress | null;
  replyTo: WrittenMailbox[];
  date: string | null;
  messageId: string | null;
  /** The Subject as written (encoded words undecoded); null when missing. */
  rawSubject: string | null;
  mimeVersion: string | null;
  returnPath: WrittenMailbox | null;
  listUnsubscribe: ListUnsubscribe | null;
  /** The List-Unsubscribe-Post value as written; null when absent. */
  listUnsubscribePost: string | null;
  dkimSignatures: DkimSignatureTags[];
  precedence: string | null;
  feedbackId: string | null;
}

export function readMessageFacts(message: ParsedMessage): MessageFacts {
  const fields = message.headers;
  const values = (name: string) => fields.filter((field) => field.name === name).map((field) => field.value.trim());
  const single = (name: string) => headerValue(fields, name)?.trim() ?? null;
  const fromFields = values('from');
  const fromMailboxes = fromFields.length > 0 ? mailboxes(fromFields[0]) : [];
  const returnPath = single('return-path');
  return {
    message,
    fromFields,
    fromMailboxes,
    from: fromFields.length === 1 && fromMailboxes.length === 1 ? fromMailboxes[0].valid : null,
    replyTo: values('reply-to').flatMap(mailboxes),
    date: single('date'),
    messageId: single('message-id'),
    rawSubject: headerValue(fields, 'subject')?.trim() ?? null,
    mimeVersion: single('mime-version'),
    returnPath: returnPath === null ? null : (mailboxes(returnPath)[0] ?? { address: '', name: '', valid: null }),
    listUnsubscribe: readListUnsubscribe(single('list-unsubscribe'), single('list-unsubscribe-post')),
    listUnsubscribePost: single('list-unsubscribe-post'),
    dkimSignatures: values('dkim-signature').map(readDkimSignature),
    precedence: single('precedence'),
    feedbackId: single('feedback-id'),
  };
}

/** `local@domain` with a domain that normalizeDomain accepts, as the report spells it (domain lower case ASCII). */
export function checkAddress(address: string, name = ''): MessageAddress | null {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1 || /[\s<>()[\]\\,;:"]/.test(address.slice(0, at).replace(/^".*"$/, 'q'))) return null;
  const domain = address.slice(at + 1);
  if (/[\s/?#:@[\]]/.test(domain)) return null;
  const normalized = normalizeDomain(domain);
  if (!normalized.ok || !normalized.domain.includes('.')) return null;
  return { address: `${address.slice(0, at)}@${normalized.domain}`, name, domain: normalized.domain };
}

function mailboxes(value: string): WrittenMailbox[] {
  const parsed = PostalMime.addressParser(value, { flatten: true }) as PostalMime.Mailbox[];
  return parsed.map((mailbox) => ({ address: mailbox.address, name: mailbox.name, valid: checkAddress(mailbox.address, mailbox.name) }));
}

/** RFC 2369: `<uri>, <uri>`; only the bracketed URIs count. */
function readListUnsubscribe(value: string | null, post: string | null): ListUnsubscribe | null {
  if (value === null) return null;
  const uris = [...value.matchAll(/<([^<>]*)>/g)].map((match) => match[1].trim());
  return {
    uris,
    https: uris.find((uri) => /^https:\/\/[^\s/]+/i.test(uri)) ?? null,
    mailto: uris.find((uri) => /^mailto:[^\s@]+@[^\s@]+/i.test(uri)) ?? null,
    oneClick: post !== null && post.replace(/\s+/g, '') === 'List-Unsubscribe=One-Click',
  };
}

function readDkimSignature(value: string): DkimSignatureTags {
  const tags = parseTagList(value.replace(/\s+/g, ' ')).tags;
  const domain = normalizeDomain(tags.get('d') ?? '');
  return {
    domain: domain.ok ? domain.domain : '',
    selector: (tags.get('s') ?? '').toLowerCase(),
    signedHeaders: (tags.get('h') ?? '')
      .split(':')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  };
}
