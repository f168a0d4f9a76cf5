import type { DnsFailureReason, DnsLookup, DnsResolver, MxRecord } from './dns-resolver.port';

/** Records of one name; a failure reason makes every lookup of the name fail that way. */
export type StaticZoneEntry = { TXT?: string[]; MX?: MxRecord[]; A?: string[]; AAAA?: string[] } | { fail: DnsFailureReason };

/**
 * A DnsResolver over an in-memory zone: for engine tests, benchmarks and the CLI's offline mode.
 * Answers like a real server: NXDOMAIN for names that do not exist (nor have names below them),
 * NODATA for names that exist without the asked type.
 */
export class StaticZoneResolver implements DnsResolver {
  readonly queries: string[] = [];
  private readonly zone: Map<string, StaticZoneEntry>;

  constructor(zone: Record<string, StaticZoneEntry>) {
    this.zone = new Map(Object.entries(zone).map(([name, entry]) => [name.toLowerCase().replace(/\.$/, ''), entry]));
  }

  private lookup<T>(name: string, type: 'TXT' | 'MX' | 'A' | 'AAAA'): DnsLookup<T> {
    const key = name.toLowerCase().replace(/\.$/, '');
    this.queries.push(`${type} ${key}`);
    const entry = this.zone.get(key);
    if (entry && 'fail' in entry) return { status: 'error', reason: entry.fail, message: `${type} ${key}: ${entry.fail}` };
    const records = entry?.[type] as T[] | undefined;
    if (records && records.length > 0) return { status: 'ok', records: [...records] };
    const exists = entry !== undefined || [...this.zone.keys()].some((other) => other.endsWith(`.${key}`));
    return exists ? { status: 'nodata' } : { status: 'nxdomain' };
  }

  async txt(name: string): Promise<DnsLookup<string>> {
    return this.lookup(name, 'TXT');
  }
  async mx(name: string): Promise<DnsLookup<MxRecord>> {
    return this.lookup(name, 'MX');
  }
  async a(name: string): Promise<DnsLookup<string>> {
    return this.lookup(name, 'A');
  }
  async aaaa(name: string): Promise<DnsLookup<string>> {
    return this.lookup(name, 'AAAA');
  }
}
