import { labelToAscii } from './punycode';

export type DomainRejection = 'empty' | 'ip_literal' | 'single_label' | 'too_long' | 'label_too_long' | 'invalid_characters';

export type NormalizedDomain = { ok: true; domain: string } | { ok: false; reason: DomainRejection; message: string };

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// IDNA2008 label separators that users paste from word processors (U+3002, U+FF0E, U+FF61).
const DOT_LIKE = /[\u3002\uff0e\uff61]/g;

function reject(reason: DomainRejection, message: string): NormalizedDomain {
  return { ok: false, reason, message };
}

/**
 * Turns what a person pastes into the ASCII domain to audit: trims, drops a scheme, user part,
 * path, query and port, lowercases, removes the trailing root dot, converts IDN labels to
 * Punycode (after NFC; full UTS #46 mapping is not attempted). Refuses IP literals, single labels,
 * over-long names and characters that cannot appear in a host name.
 */
export function normalizeDomain(raw: string): NormalizedDomain {
  let text = raw.trim().normalize('NFC').replace(DOT_LIKE, '.');
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\/\//, '');
  text = text.replace(/^mailto:/i, '');
  text = text.split(/[/?#]/)[0];
  // An e-mail address or URL user-info: the domain is what follows the last '@'.
  if (text.includes('@')) text = text.slice(text.lastIndexOf('@') + 1);
  if (text.startsWith('[') || (text.match(/:/g) ?? []).length > 1) {
    return reject('ip_literal', 'An IP address is not a domain; give the domain name you send from.');
  }
  text = text.replace(/:\d*$/, '');
  text = text.toLowerCase();
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (text === '') return reject('empty', 'The domain is empty.');
  const labels = text.split('.');
  if (labels.some((label) => label === '')) return reject('invalid_characters', 'The domain has an empty label (two dots in a row).');
  let ascii: string[];
  try {
    ascii = labels.map(labelToAscii);
  } catch {
    return reject('invalid_characters', 'The domain contains characters that cannot be encoded.');
  }
  if (ascii.every((label) => /^\d+$/.test(label)) || /^\d+$/.test(ascii[ascii.length - 1])) {
    return reject('ip_literal', 'An IP address is not a domain; give the domain name you send from.');
  }
  if (ascii.length < 2) return reject('single_label', 'Give a full domain such as example.com, not a single label.');
  for (const label of ascii) {
    if (label.length > MAX_LABEL_LENGTH) return reject('label_too_long', `The label "${label.slice(0, 20)}…" is longer than 63 characters.`);
    if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(label)) {
      return reject('invalid_characters', `The label "${label}" may hold only letters, digits and inner hyphens.`);
    }
  }
  const domain = ascii.join('.');
  if (domain.length > MAX_NAME_LENGTH) return reject('too_long', 'The domain is longer than 253 characters.');
  return { ok: true, domain };
}

/** A DKIM selector as it may appear in `<selector>._domainkey.<domain>` (it may contain dots). */
export function isValidDkimSelector(selector: string): boolean {
  return (
    selector.length > 0 &&
    selector.length <= MAX_LABEL_LENGTH * 2 &&
    selector.split('.').every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(label))
  );
}
