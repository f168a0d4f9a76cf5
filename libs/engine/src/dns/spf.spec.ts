import { evaluateSpf } from './spf';
import { expandDomainSpec, isDomainSpec, isMacroString } from './spf-macro';
import { StaticZoneResolver, type StaticZoneEntry } from './static-zone-resolver';

/** The SPF outcome of `example.test` publishing `record`, over a zone with `extra` names. */
async function spf(record: string, extra: Record<string, StaticZoneEntry> = {}) {
  const resolver = new StaticZoneResolver({ 'example.test': { TXT: [record], A: ['192.0.2.1'] }, ...extra });
  const outcome = await evaluateSpf('example.test', resolver);
  return { ...outcome, rules: outcome.issues.map((issue) => issue.rule), queries: resolver.queries };
}

describe('evaluateSpf (RFC 7208)', () => {
  describe('mx with more than 10 MX hosts (4.6.4)', () => {
    const hosts = (count: number) => Array.from({ length: count }, (_, i) => ({ exchange: `mx${i}.example.test`, priority: i }));

    it('is a permerror at 11 hosts', async () => {
      const result = await spf('v=spf1 mx -all', { 'example.test': { TXT: ['v=spf1 mx -all'], MX: hosts(11) } });
      expect(result.summary.valid).toBe(false);
      expect(result.rules).toContain('spf_mx_too_many_hosts');
      expect(result.check.status).toBe('fail');
    });

    it('is fine at 10 hosts, also for mx:<domain>', async () => {
      const result = await spf('v=spf1 mx:mail.example.test -all', { 'mail.example.test': { MX: hosts(10) } });
      expect(result.summary).toMatchObject({ valid: true, lookups: 1 });
      expect(result.check.status).toBe('pass');
    });
  });

  describe('macros in include, exists, redirect, a and mx (7)', () => {
    it('expands %{d} and %{o} for the audited domain, follows the include and counts its lookups', async () => {
      const eleven = Array.from({ length: 10 }, (_, i) => `a:h${i}.example.test`).join(' ');
      const hosts = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`h${i}.example.test`, { A: ['192.0.2.9'] }]));
      const result = await spf('v=spf1 include:_spf.%{d} ip4:192.0.2.0/24 -all', { '_spf.example.test': { TXT: [`v=spf1 ${eleven} -all`] }, ...hosts });
      expect(result.summary.lookups).toBe(11);
      expect(result.summary.valid).toBe(false);
      expect(result.rules).toContain('spf_too_many_lookups');
      expect(result.queries).toContain('TXT _spf.example.test');
    });

    it('gives %{d} the domain of the record that holds it, %{o} the audited domain', async () => {
      const result = await spf('v=spf1 include:inc.other.test -all', {
        'inc.other.test': { TXT: ['v=spf1 exists:%{d2}.check.test exists:%{o}.check.test -all'] },
        'other.test.check.test': { A: ['127.0.0.2'] },
        'example.test.check.test': { A: ['127.0.0.2'] },
      });
      expect(result.queries).toEqual(expect.arrayContaining(['A other.test.check.test', 'A example.test.check.test']));
      expect(result.summary).toMatchObject({ valid: true, lookups: 3, voidLookups: 0 });
    });

    it('follows redirect=%{d} targets and applies reversal, digits and delimiters', async () => {
      const result = await spf('v=spf1 redirect=_spf.%{dr}', { '_spf.test.example': { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] } });
      expect(result.queries).toContain('TXT _spf.test.example');
      expect(result.summary).toMatchObject({ valid: true, lookups: 1 });
      expect(expandDomainSpec('%{d1}.x.test', { domain: 'a.b.example.test', senderDomain: 'o.test' })).toBe('test.x.test');
      expect(expandDomainSpec('%{d2r}.x.test', { domain: 'a.b.example.test', senderDomain: 'o.test' })).toBe('b.a.x.test');
      expect(expandDomainSpec('%{o-}.x.test', { domain: 'd.test', senderDomain: 'my-mail.example.test' })).toBe('my.mail.example.test.x.test');
    });

    it('counts a per-message macro (%{i}, %{l}) without following it', async () => {
      const result = await spf('v=spf1 exists:%{i}._ip.%{d} include:%{l}._u.%{d} -all');
      expect(result.summary).toMatchObject({ valid: true, lookups: 2 });
      expect(result.rules).toContain('spf_macro_not_followed');
      expect(result.queries).toEqual(['TXT example.test']);
    });

    it('checks macro syntax', () => {
      expect(isMacroString('%{ir}.%{v}._spf.%{d2}')).toBe(true);
      expect(isMacroString('%{x}.example.test')).toBe(false); // not a macro letter
      expect(isMacroString('%{d0}.example.test')).toBe(false); // a DIGIT transformer is never 0
      expect(isMacroString('50%.example.test')).toBe(false); // a bare %
      expect(isDomainSpec('%{c}.example.test')).toBe(false); // c is for exp= text only
      expect(isDomainSpec('foo.%{d}')).toBe(true);
    });
  });

  describe('syntax errors anywhere are a permerror (4.6)', () => {
    it.each([
      ['ip4:192.0.2.0/40 after -all', 'v=spf1 -all ip4:192.0.2.0/40'],
      ['an unknown mechanism after -all', 'v=spf1 mx -all foo:bar'],
      ['all with a dot', 'v=spf1 -all.'],
      ['all with an argument', 'v=spf1 -all:foo.test'],
      ['all with a CIDR', 'v=spf1 all/8'],
      ['a CIDR on include', 'v=spf1 include:other.test/24 -all'],
      ['an empty a:', 'v=spf1 a: -all'],
      ['a CIDR of 33', 'v=spf1 a/33 -all'],
      ['an IPv6 CIDR of 129', 'v=spf1 a//129 -all'],
      ['a leading-zero CIDR', 'v=spf1 ip4:192.0.2.0/024 -all'],
      ['a port on ip4', 'v=spf1 ip4:192.0.2.1:25 -all'],
      ['a short ip4', 'v=spf1 ip4:192.0.2 -all'],
      ['a dual CIDR on ip4', 'v=spf1 ip4:192.0.2.1//64 -all'],
      ['a numeric top label', 'v=spf1 a:192.0.2.1 -all'],
      ['a single-label domain', 'v=spf1 a:test -all'],
      ['exists without a domain', 'v=spf1 exists -all'],
      ['a CIDR on ptr', 'v=spf1 ptr/24 -all'],
      ['an empty redirect=', 'v=spf1 redirect='],
      ['two exp=', 'v=spf1 -all exp=a.example.test exp=b.example.test'],
      ['a bad macro in an unknown modifier', 'v=spf1 -all foo=%q'],
      ['a modifier name starting with a digit', 'v=spf1 1up=foo -all'],
      ['an empty modifier name', 'v=spf1 =all'],
    ])('%s', async (_name, record) => {
      const result = await spf(record, { 'other.test': { TXT: ['v=spf1 -all'] } });
      expect(result.rules).toContain('spf_syntax');
      expect(result.summary.valid).toBe(false);
      expect(result.check.status).toBe('fail');
    });

    it.each([
      ['dual CIDRs on a and mx', 'v=spf1 a/24//64 mx:example.test/32 -all'],
      ['ip6 with a prefix', 'v=spf1 ip6:2001:db8::/32 -all'],
      ['a hyphen in the top label', 'v=spf1 a:mail.example.xn--p1ai -all'],
      ['a trailing dot', 'v=spf1 a:example.test. -all'],
      ['unknown modifiers', 'v=spf1 -all moo=cow.%{d}'],
      ['terms after all that are well formed', 'v=spf1 -all ip4:192.0.2.0/24 include:other.test'],
    ])('accepts %s', async (_name, record) => {
      const result = await spf(record, { 'other.test': { TXT: ['v=spf1 -all'] } });
      expect(result.rules).not.toContain('spf_syntax');
      expect(result.summary.valid).toBe(true);
    });
  });

  it('does not evaluate what comes after all: no lookups, nothing followed', async () => {
    const result = await spf('v=spf1 -all include:other.test');
    expect(result.summary.lookups).toBe(0);
    expect(result.queries).toEqual(['TXT example.test']);
  });

  describe('the result a server the record does not list gets (4.6.2, 5, 6.1)', () => {
    const targets: Record<string, StaticZoneEntry> = {
      'soft.test': { TXT: ['v=spf1 ~all'] },
      'open.test': { TXT: ['v=spf1 +all'] },
      'lists.test': { TXT: ['v=spf1 ip4:198.51.100.0/24 -all'] },
      'slow.test': { fail: 'timeout' },
      'allow.test': { A: ['127.0.0.2'] },
    };
    it.each([
      ['-all', 'v=spf1 mx -all', 'fail'],
      ['~all', 'v=spf1 a ~all', 'softfail'],
      ['?all', 'v=spf1 ?all', 'neutral'],
      ['+all', 'v=spf1 +all', 'pass'],
      ['a bare all', 'v=spf1 mx all', 'pass'],
      ['no all and no redirect', 'v=spf1 a', 'neutral'],
      ['an empty record', 'v=spf1', 'neutral'],
      ['an ip4 network that holds every address', 'v=spf1 ip4:192.0.2.1/0 -all', 'pass'],
      ['an ip4 network that does not', 'v=spf1 ip4:192.0.2.1/8 -all', 'fail'],
      ['an include whose record does not pass', 'v=spf1 include:soft.test -all', 'fail'],
      ['an include whose record passes everyone', 'v=spf1 include:open.test -all', 'pass'],
      ['an include that lists its own servers', 'v=spf1 include:lists.test ~all', 'softfail'],
      ['an include that cannot be read', 'v=spf1 include:slow.test -all', 'temperror'],
      ['exists on a name that resolves', 'v=spf1 exists:allow.test -all', 'pass'],
      ['exists on a name that does not', 'v=spf1 exists:nothing.test -all', 'fail'],
      ['redirect= to ~all', 'v=spf1 redirect=soft.test', 'softfail'],
      ['redirect= ignored beside all', 'v=spf1 -all redirect=open.test', 'fail'],
      ['a permerror', 'v=spf1 ip4:1.2.3 -all', 'permerror'],
    ])('%s: %s gives %s', async (_what, record, expected) => {
      const result = await spf(record, targets);
      expect(result.summary.result).toBe(expected);
    });

    it('is none without a record and permerror with two', async () => {
      expect((await spf('not spf')).summary.result).toBe('none');
      const two = await evaluateSpf('example.test', new StaticZoneResolver({ 'example.test': { TXT: ['v=spf1 -all', 'v=spf1 ~all'] } }));
      expect(two.summary.result).toBe('permerror');
    });
  });
});
