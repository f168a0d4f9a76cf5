import { auditDomain, domainHealth, isInconclusive, StaticZoneResolver, type DnsLookup, type DnsResolver, type StaticZoneEntry } from '@mailproof/engine/dns';
import { monitoredDomainChange } from './monitored-domain-change';

const zone: Record<string, StaticZoneEntry> = {
  'drift.test': { MX: [{ exchange: 'mx1.drift.test', priority: 10 }], TXT: ['v=spf1 mx -all'] },
  'mx1.drift.test': { A: ['192.0.2.1'] },
  'mx2.drift.test': { A: ['192.0.2.2'] },
  '_dmarc.drift.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:r@drift.test'] },
};
const changed: Record<string, StaticZoneEntry> = {
  ...zone,
  'drift.test': { MX: [{ exchange: 'mx2.drift.test', priority: 10 }], TXT: ['v=spf1 mx -all'] },
  '_dmarc.drift.test': { TXT: ['v=DMARC1; p=none; rua=mailto:r@drift.test'] },
};
const timeout = async <T>(): Promise<DnsLookup<T>> => ({ status: 'error', reason: 'timeout', message: 'timed out' });
const outage: DnsResolver = { txt: timeout, mx: timeout, a: timeout, aaaa: timeout };

const audit = (resolver: DnsResolver) => auditDomain('drift.test', resolver);
const checkedAt = new Date('2025-03-01T10:00:00.000Z');
const row = (inconclusive: boolean) => ({ id: 'audit-2', checkedAt, inconclusive });

describe('monitoredDomainChange (the dns-audit service decides drift and status; the repository stores them)', () => {
  it('sets score, status and last result on the first conclusive audit, without drift', async () => {
    const result = await audit(new StaticZoneResolver(zone));
    const change = monitoredDomainChange(row(false), result, null);
    expect(change.driftEvents).toEqual([]);
    expect(change.domain).toEqual({
      lastCheckedAt: checkedAt,
      score: result.score,
      status: domainHealth(result.score as number),
      statusReason: null,
      lastResult: { ...result, checkedAt: '2025-03-01T10:00:00.000Z' },
    });
    expect(change.domain).not.toHaveProperty('lastDrift');
  });

  it('records drift against the previous conclusive audit and points lastDrift at this audit', async () => {
    const previous = await audit(new StaticZoneResolver(zone));
    const result = await audit(new StaticZoneResolver(changed));
    const change = monitoredDomainChange(row(false), result, previous);
    expect(change.driftEvents.map((e) => e.kind)).toEqual(expect.arrayContaining(['mx_hosts', 'dmarc_policy']));
    expect(change.domain.lastDrift).toEqual({ detectedAt: '2025-03-01T10:00:00.000Z', auditId: 'audit-2', events: change.driftEvents });
    expect(change.domain.status).toBe(domainHealth(result.score as number));
    expect(change.domain.score).toBe(result.score);
  });

  it('leaves lastDrift alone when nothing changed', async () => {
    const previous = await audit(new StaticZoneResolver(zone));
    const change = monitoredDomainChange(row(false), await audit(new StaticZoneResolver(zone)), previous);
    expect(change.driftEvents).toEqual([]);
    expect(change.domain).not.toHaveProperty('lastDrift');
  });

  it('moves only lastCheckedAt and the reason for an inconclusive audit: an outage is neither drift nor a new status', async () => {
    const previous = await audit(new StaticZoneResolver(zone));
    const result = await audit(outage);
    expect(isInconclusive(result)).toBe(true);
    expect(result.score).toBeNull();
    const change = monitoredDomainChange(row(true), result, previous);
    expect(change).toEqual({ driftEvents: [], domain: { lastCheckedAt: checkedAt, statusReason: expect.stringContaining('inconclusive') } });
    expect(change.domain.statusReason).toMatch(/timed out.*last conclusive audit/);
  });

  it('keeps a domain never audited conclusively pending, and says so', async () => {
    const change = monitoredDomainChange(row(true), await audit(outage), null);
    expect(change.domain).not.toHaveProperty('status');
    expect(change.domain).not.toHaveProperty('score');
    expect(change.domain.statusReason).toMatch(/stays pending/);
  });

  it.each([
    [100, 'healthy'],
    [80, 'healthy'],
    [79, 'degraded'],
    [50, 'degraded'],
    [49, 'failing'],
    [0, 'failing'],
  ] as const)('gives a conclusive score of %i the status %s', async (score, status) => {
    const result = { ...(await audit(new StaticZoneResolver(zone))), score };
    expect(monitoredDomainChange(row(false), result, null).domain.status).toBe(status);
  });
});
