import { auditDomain } from './audit-domain';
import { diffAudits } from './diff-audits';
import { StaticZoneResolver, type StaticZoneEntry } from './static-zone-resolver';

const base: Record<string, StaticZoneEntry> = {
  'drift.test': { MX: [{ exchange: 'mx1.drift.test', priority: 10 }], TXT: ['v=spf1 mx -all'] },
  'mx1.drift.test': { A: ['192.0.2.1'] },
  'mx2.drift.test': { A: ['192.0.2.2'] },
  '_dmarc.drift.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:r@drift.test'] },
};
const run = (zone: Record<string, StaticZoneEntry>) => auditDomain('drift.test', new StaticZoneResolver(zone));

describe('diffAudits', () => {
  it('finds nothing between identical audits', async () => {
    expect(diffAudits(await run(base), await run(base))).toEqual([]);
  });

  it('reports SPF text and lookups, DMARC policy and text, MX hosts and the score in a fixed order', async () => {
    const before = await run(base);
    const after = await run({
      ...base,
      'drift.test': { MX: [{ exchange: 'mx2.drift.test', priority: 10 }], TXT: ['v=spf1 mx a ~all'] },
      '_dmarc.drift.test': { TXT: ['v=DMARC1; p=none; rua=mailto:r@drift.test'] },
    });
    const events = diffAudits(before, after);
    expect(events.map((e) => e.kind)).toEqual(['mx_hosts', 'spf_record', 'spf_lookups', 'dmarc_policy', 'dmarc_record', 'check_status', 'score']);
    expect(events[0]).toMatchObject({ check: 'mx', previous: ['mx1.drift.test'], current: ['mx2.drift.test'] });
    expect(events.find((e) => e.kind === 'dmarc_policy')).toMatchObject({
      previous: 'reject',
      current: 'none',
      message: 'DMARC policy changed from reject to none.',
    });
    expect(events.find((e) => e.kind === 'score')).toMatchObject({ previous: before.score, current: after.score });
  });

  it('reports DKIM validity and BIMI changes', async () => {
    const before = await run(base);
    const after = await run({
      ...base,
      'google._domainkey.drift.test': { TXT: ['v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='] },
      'default._bimi.drift.test': { TXT: ['v=BIMI1; l=https://drift.test/logo.svg'] },
    });
    const kinds = diffAudits(before, after).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['dkim_validity', 'bimi', 'score']));
  });

  it('does not treat an outage as drift', async () => {
    const before = await run(base);
    const outage = await run({ ...base, 'drift.test': { fail: 'servfail' }, '_dmarc.drift.test': { fail: 'timeout' } });
    expect(diffAudits(before, outage).filter((e) => e.check === 'mx' || e.check === 'spf' || e.check === 'dmarc' || e.kind === 'score')).toEqual([]);
  });

  it('does not treat an SPF include that could not be read as drift, but still compares the record text', async () => {
    const included = {
      ...base,
      'drift.test': { ...base['drift.test'], TXT: ['v=spf1 include:_spf.provider.test mx -all'] },
      '_spf.provider.test': { TXT: ['v=spf1 a:out1.provider.test a:out2.provider.test -all'] },
    };
    const before = await run(included);
    const unread = await run({ ...included, '_spf.provider.test': { fail: 'timeout' } });
    expect(before.spf).toMatchObject({ lookups: 4, lookupsComplete: true });
    expect(unread.spf).toMatchObject({ lookups: 2, lookupsComplete: false, valid: true });
    expect(unread.checks.spf.status).toBe('warn');
    // The count fell and the status went to warn only because a lookup failed: neither is a change.
    expect(diffAudits(before, unread)).toEqual([]);
    expect(diffAudits(unread, before)).toEqual([]);
    const edited = await run({
      ...included,
      'drift.test': { ...base['drift.test'], TXT: ['v=spf1 include:_spf.provider.test -all'] },
      '_spf.provider.test': { fail: 'timeout' },
    });
    expect(diffAudits(before, edited).map((e) => e.kind)).toEqual(['spf_record']);
  });
});
