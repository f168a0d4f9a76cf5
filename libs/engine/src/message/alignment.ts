import { getDomain, parse } from 'tldts';

/** DMARC's identifier alignment modes (RFC 7489 3.1): r relaxed (the default), s strict. */
export type AlignmentMode = 'r' | 's';

/**
 * The organizational domain (RFC 7489 3.2): the public suffix plus one label, read from the Public Suffix
 * List as tldts ships it (ICANN section; the private section's hosting suffixes would make every customer of
 * a platform its own organization). A name that is itself a suffix, or that tldts cannot read, is its own.
 */
export function organizationalDomain(domain: string): string {
  const name = domain.toLowerCase().replace(/\.$/, '');
  return getDomain(name, { allowPrivateDomains: false }) ?? name;
}

/**
 * Whether an authenticated domain (DKIM d=, or the SPF-checked envelope domain) aligns with the From
 * domain (RFC 7489 3.1.1 and 3.1.2): strict asks for the same name, relaxed for the same organizational
 * domain (mail.acme.example aligns with acme.example, acme.example does not with acme.co.uk).
 */
export function evaluateAlignment(authenticatedDomain: string, fromDomain: string, mode: AlignmentMode): boolean {
  const a = authenticatedDomain.toLowerCase().replace(/\.$/, '');
  const b = fromDomain.toLowerCase().replace(/\.$/, '');
  if (a === '' || b === '') return false;
  if (mode === 's') return a === b;
  return organizationalDomain(a) === organizationalDomain(b);
}

/** A name under a suffix of the Public Suffix List's ICANN section (`paypal.com`, not `node.js` nor `Mr.Smith`). */
export function hasIcannSuffix(name: string): boolean {
  return parse(name.toLowerCase(), { allowPrivateDomains: false }).isIcann === true;
}
