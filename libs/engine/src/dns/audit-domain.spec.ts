import { generateKeyPairSync } from 'node:crypto';
import { auditDomain, domainHealth, isInconclusive, scoreChecks } from './audit-domain';
import { COMMON_DKIM_SELECTORS } from './dkim';
import { StaticZoneResolver, type StaticZoneEntry } from './static-zone-resolver';

/** base64 p= value of a fresh RSA key of `bits` bits, as DER SubjectPublicKeyInfo or PKCS#1. */
function rsaKey(bits: number, format: 'spki' | 'pkcs1' = 'spki'): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return publicKey.export({ type: format, format: 'der' }).toString('base64');
}
function ed25519Key(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  return publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64');
}
const KEY_2048 = rsaKey(2048);
const KEY_1024 = rsaKey(1024);
const KEY_512 = rsaKey(512);

/** A domain that gets everything right. Parts can be overridden per test. */
function healthyZone(domain = 'good.test', overrides: Record<string, StaticZoneEntry> = {}): Record<string, StaticZoneEntry> {
  return {
    [domain]: {
      MX: [
        { exchange: `mx2.${domain}`, priority: 20 },
        { exchange: `mx1.${domain}`, priority: 10 },
      ],
      TXT: ['v=spf1 include:_spf.provider.test mx -all', 'google-site-verification=abc'],
    },
    [`mx1.${domain}`]: { A: ['192.0.2.10'] },
    [`mx2.${domain}`]: { AAAA: ['2001:db8::10'] },
    '_spf.provider.test': { TXT: ['v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:1::/48 ~all'] },
    [`selector1._domainkey.${domain}`]: { TXT: [`v=DKIM1; k=rsa; p=${KEY_2048}`] },
    [`_dmarc.${domain}`]: { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@good.test; adkim=s'] },
    [`default._bimi.${domain}`]: { TXT: ['v=BIMI1; l=https://good.test/logo.svg; a=https://good.test/vmc.pem'] },
    ...overrides,
  };
}

async function audit(zone: Record<string, StaticZoneEntry>, domain = 'good.test', dkimSelectors?: string[]) {
  return auditDomain(domain, new StaticZoneResolver(zone), { dkimSelectors });
}
const rules = (result: { issues: Array<{ rule: string }> }) => result.issues.map((issue) => issue.rule);

describe('auditDomain', () => {
  it('scores a healthy domain 100 with every check passing and the 2.5 shape', async () => {
    const result = await audit(healthyZone());
    expect(result).toMatchObject({
      domain: 'good.test',
      score: 100,
      spf: { valid: true, record: 'v=spf1 include:_spf.provider.test mx -all', lookups: 2 },
      dkim: { valid: true, selector: 'selector1' },
      dmarc: { valid: true, policy: 'reject', record: 'v=DMARC1; p=reject; rua=mailto:dmarc@good.test; adkim=s' },
      mx: { valid: true, hosts: ['mx1.good.test', 'mx2.good.test'] },
      bimi: { valid: true, indicatorUrl: 'https://good.test/logo.svg' },
    });
    for (const check of Object.values(result.checks)) expect(check.status).toBe('pass');
    expect(result.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    expect(result.dkim.keys).toEqual([{ selector: 'selector1', keyType: 'rsa', bits: 2048, revoked: false, testing: false }]);
  });

  it('is deterministic', async () => {
    expect(await audit(healthyZone())).toEqual(await audit(healthyZone()));
  });

  it('refuses a domain that is not normalized', async () => {
    await expect(audit(healthyZone(), 'Good.Test')).rejects.toThrow(RangeError);
  });

  describe('SPF', () => {
    it('counts lookups recursively and fails at 11', async () => {
      const includes = Array.from({ length: 5 }, (_, i) => `include:i${i}.chain.test`).join(' ');
      const zone = healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: [`v=spf1 ${includes} a mx -all`] } });
      // Each include adds its own a + mx: 5 includes + 5*(a) + a + mx = 12? Build exactly 11: 5 includes, 4 of them with one `a`.
      for (let i = 0; i < 5; i++)
        zone[`i${i}.chain.test`] = { TXT: [i < 4 ? `v=spf1 a ip4:192.0.2.${i} -all` : 'v=spf1 ip4:192.0.2.9 -all'], A: ['192.0.2.1'] };
      const result = await audit(zone);
      expect(result.spf.lookups).toBe(11);
      expect(result.spf.valid).toBe(false);
      expect(result.checks.spf.status).toBe('fail');
      expect(rules(result)).toContain('spf_too_many_lookups');
      expect(result.checks.spf.message).toMatch(/11 DNS lookups/);
    });

    it('accepts exactly 10 lookups', async () => {
      const includes = Array.from({ length: 10 }, (_, i) => `include:i${i}.ten.test`).join(' ');
      const zone = healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: [`v=spf1 ${includes} -all`] } });
      for (let i = 0; i < 10; i++) zone[`i${i}.ten.test`] = { TXT: [`v=spf1 ip4:192.0.2.${i} -all`] };
      const result = await audit(zone);
      expect(result.spf).toMatchObject({ valid: true, lookups: 10 });
      expect(result.checks.spf.status).toBe('pass');
    });

    it('counts a record included from two places twice (a diamond is not a loop), as receivers evaluate it', async () => {
      const zone = healthyZone('good.test', {
        'good.test': { ...healthyZone()['good.test'], TXT: ['v=spf1 include:a.diamond.test include:b.diamond.test -all'] },
      });
      zone['a.diamond.test'] = { TXT: ['v=spf1 include:shared.diamond.test -all'] };
      zone['b.diamond.test'] = { TXT: ['v=spf1 include:shared.diamond.test -all'] };
      zone['shared.diamond.test'] = { TXT: ['v=spf1 a mx ip4:192.0.2.7 -all'], A: ['192.0.2.7'], MX: [{ exchange: 'mx1.good.test', priority: 10 }] };
      const result = await audit(zone);
      // 2 includes + 2 x (1 include + a + mx) = 8
      expect(result.spf).toMatchObject({ valid: true, lookups: 8 });
      expect(rules(result)).not.toContain('spf_include_loop');
      expect(result.checks.spf.status).toBe('pass');
      // The same include written twice counts twice.
      const twice = await audit(
        healthyZone('good.test', {
          'good.test': { ...healthyZone()['good.test'], TXT: ['v=spf1 include:_spf.provider.test include:_spf.provider.test -all'] },
        }),
      );
      expect(twice.spf).toMatchObject({ valid: true, lookups: 2 });
      expect(rules(twice)).not.toContain('spf_include_loop');
    });

    it('follows redirect= and counts it', async () => {
      const zone = healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: ['v=spf1 redirect=_spf.provider.test'] } });
      const result = await audit(zone);
      expect(result.spf).toMatchObject({ valid: true, lookups: 1 });
    });

    it('fails two SPF records', async () => {
      const zone = healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: ['v=spf1 -all', 'v=spf1 mx -all'] } });
      const result = await audit(zone);
      expect(result.spf).toEqual({ valid: false, record: '', lookups: 0, lookupsComplete: true, voidLookups: 0, result: 'permerror' });
      expect(rules(result)).toContain('spf_multiple_records');
      expect(result.checks.spf.status).toBe('fail');
    });

    it('fails the check of +all and a bare all (valid SPF, a failing policy), warns ?all and a missing all', async () => {
      const withSpf = (spf: string) => healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: [spf] } });
      const plusAll = await audit(withSpf('v=spf1 mx +all'));
      expect(plusAll.checks.spf.status).toBe('fail');
      expect(plusAll.spf.valid).toBe(true);
      expect(plusAll.checks.spf.message).toMatch(/\+all: it authorizes every server.*valid SPF/);
      const bareAll = await audit(withSpf('v=spf1 mx all'));
      expect(rules(bareAll)).toContain('spf_pass_all');
      expect(bareAll.spf.valid).toBe(true);
      const neutral = await audit(withSpf('v=spf1 mx ?all'));
      expect(neutral.checks.spf.status).toBe('warn');
      expect(rules(neutral)).toContain('spf_neutral_all');
      expect(rules(await audit(withSpf('v=spf1 mx')))).toContain('spf_no_all');
    });

    it('fails a missing record, bad syntax, an include without SPF and include loops', async () => {
      const zone = healthyZone();
      delete (zone['good.test'] as { TXT?: string[] }).TXT;
      expect(rules(await audit(zone))).toContain('spf_missing');
      const withSpf = (spf: string, extra: Record<string, StaticZoneEntry> = {}) =>
        healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: [spf] }, ...extra });
      expect(rules(await audit(withSpf('v=spf1 ip4:999.1.1.1 -all')))).toContain('spf_syntax');
      expect(rules(await audit(withSpf('v=spf1 foo:bar -all')))).toContain('spf_syntax');
      expect(rules(await audit(withSpf('v=spf1 include:nothing.test -all')))).toContain('spf_include_invalid');
      const loop = await audit(withSpf('v=spf1 include:loop.test -all', { 'loop.test': { TXT: ['v=spf1 include:good.test -all'] } }));
      expect(rules(loop)).toContain('spf_include_loop');
      expect(loop.checks.spf.status).toBe('fail');
    });

    it('counts void lookups and fails more than two', async () => {
      const withSpf = (spf: string) => healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: [spf] } });
      const result = await audit(withSpf('v=spf1 a:gone1.test a:gone2.test mx:gone3.test -all'));
      expect(result.spf.voidLookups).toBe(3);
      expect(rules(result)).toContain('spf_too_many_void_lookups');
    });

    it('warns ptr and accepts valid ip6 networks', async () => {
      const withSpf = (spf: string) => healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], TXT: [spf] } });
      const result = await audit(withSpf('v=spf1 ip6:2001:db8::/32 ptr -all'));
      expect(rules(result)).toEqual(expect.arrayContaining(['spf_ptr']));
      expect(rules(result)).not.toContain('spf_syntax');
      expect(result.checks.spf.status).toBe('warn');
    });

    it('skips when the TXT lookup times out, and warns when only an include cannot be read', async () => {
      const timeout = await audit(healthyZone('good.test', { 'good.test': { fail: 'timeout' } }));
      expect(timeout.checks.spf).toEqual({ status: 'skip', message: 'SPF not checked: the DNS lookup timed out.' });
      const include = await audit(healthyZone('good.test', { '_spf.provider.test': { fail: 'servfail' } }));
      expect(include.checks.spf.status).toBe('warn');
      expect(rules(include)).toContain('spf_include_unverified');
    });
  });

  describe('DKIM', () => {
    const withDkim = (entries: Record<string, StaticZoneEntry>) => {
      const zone = healthyZone();
      delete zone['selector1._domainkey.good.test'];
      return { ...zone, ...entries };
    };

    it('finds a key at a given selector, ed25519 and PKCS#1 keys included', async () => {
      const given = await audit(withDkim({ 'custom._domainkey.good.test': { TXT: [`v=DKIM1; k=ed25519; p=${ed25519Key()}`] } }), 'good.test', ['Custom']);
      expect(given.dkim).toMatchObject({ valid: true, selector: 'custom', keys: [{ selector: 'custom', keyType: 'ed25519', bits: 256 }] });
      const pkcs1 = await audit(withDkim({ 's1._domainkey.good.test': { TXT: [`p=${rsaKey(2048, 'pkcs1')}`] } }));
      expect(pkcs1.dkim.keys[0]).toMatchObject({ selector: 's1', bits: 2048 });
      expect(pkcs1.checks.dkim.status).toBe('pass');
    });

    it('warns a 1024-bit key and fails a 512-bit one', async () => {
      const weak = await audit(withDkim({ 'google._domainkey.good.test': { TXT: [`v=DKIM1; p=${KEY_1024}`] } }));
      expect(weak.checks.dkim.status).toBe('warn');
      expect(weak.dkim).toMatchObject({ valid: true, selector: 'google' });
      expect(rules(weak)).toContain('dkim_weak_key');
      const broken = await audit(withDkim({ 'google._domainkey.good.test': { TXT: [`v=DKIM1; p=${KEY_512}`] } }));
      expect(broken.checks.dkim.status).toBe('fail');
      expect(broken.dkim.valid).toBe(false);
      expect(broken.dkim.keys[0].bits).toBe(512);
    });

    it('reports a revoked key, test mode and a given selector that is missing', async () => {
      const revoked = await audit(withDkim({ 'old._domainkey.good.test': { TXT: ['v=DKIM1; p='] } }), 'good.test', ['old']);
      expect(revoked.checks.dkim.status).toBe('fail');
      expect(rules(revoked)).toContain('dkim_key_revoked');
      const testing = await audit(withDkim({ 'k1._domainkey.good.test': { TXT: [`v=DKIM1; t=y; p=${KEY_2048}`] } }));
      expect(testing.checks.dkim.status).toBe('warn');
      expect(rules(testing)).toContain('dkim_testing');
      const missing = await audit(healthyZone(), 'good.test', ['nope']);
      expect(missing.checks.dkim.status).toBe('fail');
      expect(missing.dkim.valid).toBe(true);
      expect(rules(missing)).toContain('dkim_selector_missing');
    });

    it('warns when no common selector has a key, and skips when lookups fail', async () => {
      const none = await audit(withDkim({}));
      expect(none.checks.dkim.status).toBe('warn');
      expect(none.dkim).toEqual({ valid: false, selector: '', keys: [] });
      expect(rules(none)).toContain('dkim_not_found');
      const failing: Record<string, StaticZoneEntry> = {};
      for (const selector of COMMON_DKIM_SELECTORS) failing[`${selector}._domainkey.good.test`] = { fail: 'timeout' };
      expect((await audit(withDkim(failing))).checks.dkim.status).toBe('skip');
    });

    it('only warns about a broken key at a guessed selector when a working key exists', async () => {
      const result = await audit(healthyZone('good.test', { 'k1._domainkey.good.test': { TXT: [`v=DKIM1; p=${KEY_512}`] } }));
      expect(result.checks.dkim.status).toBe('warn');
      expect(result.dkim.selector).toBe('selector1');
    });
  });

  describe('DMARC', () => {
    const withDmarc = (record: string | null, domain = 'good.test') => {
      const zone = healthyZone();
      delete zone['_dmarc.good.test'];
      return record === null ? zone : { ...zone, [`_dmarc.${domain}`]: { TXT: [record] } };
    };

    it('fails a missing record, warns p=none and partial pct', async () => {
      const missing = await audit(withDmarc(null));
      expect(missing.checks.dmarc.status).toBe('fail');
      expect(missing.dmarc).toEqual({ valid: false, policy: '', record: '', foundAt: '' });
      const none = await audit(withDmarc('v=DMARC1; p=none; rua=mailto:r@good.test'));
      expect(none.checks.dmarc.status).toBe('warn');
      expect(none.dmarc).toMatchObject({ valid: true, policy: 'none' });
      expect(rules(none)).toContain('dmarc_policy_none');
      expect(rules(await audit(withDmarc('v=DMARC1; p=quarantine; pct=20')))).toContain('dmarc_partial_pct');
    });

    it('fails invalid policies without a usable rua=, and two records', async () => {
      const maybe = await audit(withDmarc('v=DMARC1; p=maybe'));
      expect(maybe.checks.dmarc.status).toBe('fail');
      expect(maybe.dmarc).toMatchObject({ valid: false, policy: '' });
      expect((await audit(withDmarc('v=DMARC1; rua=ftp://x.good.test'))).checks.dmarc.status).toBe('fail');
      const two = { ...withDmarc(null), '_dmarc.good.test': { TXT: ['v=DMARC1; p=reject', 'v=DMARC1; p=none'] } };
      expect(rules(await audit(two))).toContain('dmarc_multiple_records');
    });

    it('reports a record without a usable p= but with a valid rua= as invalid, acting as p=none (RFC 7489 6.6.3)', async () => {
      for (const record of [
        'v=DMARC1; rua=mailto:x@good.test',
        'v=DMARC1; p=maybe; rua=mailto:x@good.test',
        'v=DMARC1; p=reject; sp=never; rua=mailto:x@good.test',
      ]) {
        const result = await audit(withDmarc(record));
        expect(result.dmarc).toMatchObject({ valid: false, policy: 'none' });
        expect(result.checks.dmarc.status).toBe('fail');
        expect(result.issues).toContainEqual(expect.objectContaining({ rule: 'dmarc_invalid_policy', severity: 'error' }));
      }
    });

    it('discards syntax errors in optional tags with a warning; the defaults apply (RFC 7489 6.3)', async () => {
      for (const record of [
        'v=DMARC1; p=reject; pct=150; rua=mailto:x@good.test',
        'v=DMARC1; p=reject; adkim=x; aspf=strict; rua=mailto:x@good.test',
        'v=DMARC1; p=reject; nonsense; rua=mailto:x@good.test',
      ]) {
        const result = await audit(withDmarc(record));
        expect(result.dmarc).toMatchObject({ valid: true, policy: 'reject' });
        expect(result.checks.dmarc.status).toBe('warn');
        expect(result.issues.filter((issue) => issue.check === 'dmarc' && issue.severity === 'error')).toEqual([]);
      }
      // The policy still applies to all failing mail: a bad pct= is not a partial one.
      expect(rules(await audit(withDmarc('v=DMARC1; p=reject; pct=abc; rua=mailto:x@good.test')))).not.toContain('dmarc_partial_pct');
    });

    it('inherits the parent policy through sp= for a subdomain', async () => {
      const zone: Record<string, StaticZoneEntry> = {
        ...healthyZone('news.good.test'),
        '_dmarc.good.test': { TXT: ['v=DMARC1; p=reject; sp=quarantine; rua=mailto:r@good.test'] },
      };
      delete zone['_dmarc.news.good.test'];
      const result = await audit(zone, 'news.good.test');
      expect(result.dmarc).toMatchObject({ valid: true, policy: 'quarantine', foundAt: '_dmarc.good.test' });
      expect(rules(result)).toContain('dmarc_inherited');
    });
  });

  describe('MX', () => {
    it('fails a null MX, a missing MX and unresolvable hosts; warns one dead host', async () => {
      const nullMx = await audit(healthyZone('good.test', { 'good.test': { ...healthyZone()['good.test'], MX: [{ exchange: '', priority: 0 }] } }));
      expect(nullMx.checks.mx.status).toBe('fail');
      expect(nullMx.mx).toEqual({ valid: false, hosts: [] });
      expect(rules(nullMx)).toContain('mx_null');
      const noMx = await audit(healthyZone('good.test', { 'good.test': { TXT: healthyZone()['good.test'] && ['v=spf1 -all'] } }));
      expect(rules(noMx)).toContain('mx_missing');
      const dead = healthyZone();
      delete dead['mx1.good.test'];
      delete dead['mx2.good.test'];
      expect(rules(await audit(dead))).toContain('mx_unresolvable');
      const oneDead = healthyZone();
      delete oneDead['mx2.good.test'];
      const result = await audit(oneDead);
      expect(result.checks.mx.status).toBe('warn');
      expect(result.checks.mx.message).toMatch(/mx2\.good\.test/);
    });

    it('warns, not fails, a domain without MX that has an address record: its implicit MX (RFC 5321 5.1)', async () => {
      const base = healthyZone()['good.test'] as { TXT: string[] };
      for (const address of [{ A: ['192.0.2.20'] }, { AAAA: ['2001:db8::20'] }]) {
        const result = await audit(healthyZone('good.test', { 'good.test': { TXT: base.TXT, ...address } }));
        expect(result.checks.mx.status).toBe('warn');
        expect(result.mx).toEqual({ valid: true, hosts: [] });
        expect(result.issues).toContainEqual(expect.objectContaining({ rule: 'mx_implicit', severity: 'warning' }));
        expect(rules(result)).not.toContain('mx_missing');
      }
    });

    it('fails a domain that does not exist', async () => {
      const result = await audit({}, 'nowhere.test');
      expect(rules(result)).toContain('mx_domain_missing');
      expect(result.score).toBe(0);
    });
  });

  describe('BIMI', () => {
    it('warns without a record, fails a non-https logo, reports the logo without fetching it', async () => {
      const zone = healthyZone();
      delete zone['default._bimi.good.test'];
      const missing = await audit(zone);
      expect(missing.checks.bimi.status).toBe('warn');
      expect(missing.bimi).toEqual({ valid: false, indicatorUrl: '', authorityUrl: '' });
      expect(missing.score).toBe(95);
      const http = await audit(healthyZone('good.test', { 'default._bimi.good.test': { TXT: ['v=BIMI1; l=http://good.test/logo.svg'] } }));
      expect(http.checks.bimi.status).toBe('fail');
      expect(rules(http)).toContain('bimi_invalid_logo');
      const noVmc = await audit(healthyZone('good.test', { 'default._bimi.good.test': { TXT: ['v=BIMI1; l=https://good.test/logo.svg'] } }));
      expect(noVmc.checks.bimi.status).toBe('pass');
      expect(rules(noVmc)).toContain('bimi_no_certificate');
    });

    it('warns when DMARC is not enforced', async () => {
      const zone = healthyZone('good.test', { '_dmarc.good.test': { TXT: ['v=DMARC1; p=none; rua=mailto:r@good.test'] } });
      expect(rules(await audit(zone))).toContain('bimi_dmarc_not_enforced');
    });
  });

  describe('score', () => {
    it('weighs pass fully, warn half, fail nothing, and leaves skipped checks out', () => {
      const pass = { status: 'pass' as const, message: '' };
      expect(scoreChecks({ mx: pass, spf: pass, dkim: pass, dmarc: pass, bimi: pass })).toBe(100);
      expect(scoreChecks({ mx: pass, spf: { status: 'fail', message: '' }, dkim: pass, dmarc: { status: 'warn', message: '' }, bimi: pass })).toBe(65);
      expect(scoreChecks({ mx: { status: 'skip', message: '' }, spf: pass, dkim: pass, dmarc: pass, bimi: { status: 'fail', message: '' } })).toBe(87);
      const skip = { status: 'skip' as const, message: '' };
      const all = { mx: skip, spf: skip, dkim: skip, dmarc: skip, bimi: skip };
      expect(scoreChecks(all)).toBeNull();
      expect(isInconclusive({ checks: all })).toBe(true);
    });

    it('maps scores to a monitored domain status', () => {
      expect([100, 80, 79, 50, 49, 0].map(domainHealth)).toEqual(['healthy', 'healthy', 'degraded', 'degraded', 'failing', 'failing']);
    });

    it('skips every record when the whole domain times out, without throwing', async () => {
      const zone: Record<string, StaticZoneEntry> = {
        'slow.test': { fail: 'timeout' },
        '_dmarc.slow.test': { fail: 'timeout' },
        'default._bimi.slow.test': { fail: 'timeout' },
      };
      for (const selector of COMMON_DKIM_SELECTORS) zone[`${selector}._domainkey.slow.test`] = { fail: 'timeout' };
      const result = await audit(zone, 'slow.test');
      expect(Object.values(result.checks).map((c) => c.status)).toEqual(['skip', 'skip', 'skip', 'skip', 'skip']);
      expect(isInconclusive(result)).toBe(true);
      expect(result.score).toBeNull();
    });
  });
});
