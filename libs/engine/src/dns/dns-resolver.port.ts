/**
 * The engine's only window on DNS. Workers implement it (DNS over HTTPS with a cache); tests
 * implement it over fixture zones. Every method answers with a value, never by throwing, so a
 * lookup that failed is data the audit can report ("skip"), not an exception.
 */
export type DnsLookup<T> =
  | { status: 'ok'; records: T[] }
  /** The name does not exist (NXDOMAIN). */
  | { status: 'nxdomain' }
  /** The name exists but has no record of this type (NOERROR with an empty answer). */
  | { status: 'nodata' }
  /** No usable answer: timeout, SERVFAIL, refused, unreachable server, malformed reply. */
  | { status: 'error'; reason: DnsFailureReason; message: string };

export type DnsFailureReason = 'timeout' | 'servfail' | 'refused' | 'unreachable' | 'bad_response';

export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface DnsResolver {
  /** TXT records, each one's character-strings already joined (RFC 7208 section 3.3). */
  txt(name: string): Promise<DnsLookup<string>>;
  mx(name: string): Promise<DnsLookup<MxRecord>>;
  a(name: string): Promise<DnsLookup<string>>;
  aaaa(name: string): Promise<DnsLookup<string>>;
}

/** True when the lookup answered authoritatively that there is nothing (RFC 7208's "void lookup"). */
export function isVoid(lookup: DnsLookup<unknown>): boolean {
  return lookup.status === 'nxdomain' || lookup.status === 'nodata' || (lookup.status === 'ok' && lookup.records.length === 0);
}

export function describeFailure(lookup: { status: 'error'; reason: DnsFailureReason; message: string }): string {
  switch (lookup.reason) {
    case 'timeout':
      return 'the DNS lookup timed out';
    case 'servfail':
      return 'the DNS server answered SERVFAIL';
    case 'refused':
      return 'the DNS server refused the query';
    case 'unreachable':
      return 'no DNS server could be reached';
    default:
      return 'the DNS server sent an unusable answer';
  }
}
