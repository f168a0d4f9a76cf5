import type { StaticZoneEntry } from '../../libs/engine/src/dns/static-zone-resolver';

/**
 * The scenarios of `npm run check:dns` (docs/deliverability.md, "Accuracy"): small zones with the
 * verdict the RFCs give, for Mailproof's audit and mailauth to be compared against. SPF verdicts are
 * for a sender the record does not list (the audit's question: does the record work for everyone
 * it does not authorize?), RFC 7208's results kept apart: `pass`, `fail`, `softfail`, `neutral`,
 * `none`, `temperror`, `permerror`. DMARC verdicts are the policy that applies ('' when no DMARC
 * applies); MX verdicts are `mx`, `implicit`, `null` or `none`. Every verdict is the published RFC's;
 * where Mailproof follows a draft instead (DMARCbis), the scenario says so in `mailproofDiffers` and
 * the difference is counted as one, never as a match.
 *
 * Sources: the cases of issue 19, and cases after the scenarios of the RFC 7208 test suite
 * (rewritten here as data of our own: names under `.test`, our own records).
 */
export type SpfVerdict = 'permerror' | 'none' | 'temperror' | 'pass' | 'fail' | 'softfail' | 'neutral';
export type MxVerdict = 'mx' | 'implicit' | 'null' | 'none';

interface BaseScenario {
  id: string;
  /** The domain audited (and the MAIL FROM / From domain given to mailauth). */
  domain: string;
  zone: Record<string, StaticZoneEntry>;
  /** The rule that decides the verdict. */
  rule: string;
  /**
   * Why mailauth answers otherwise, when it does: mailauth's own documented behavior that the RFC
   * contradicts, or a newer RFC rule Mailproof chose on purpose. A difference without one is a defect.
   */
  mailauthDiffers?: string;
  /**
   * Why Mailproof answers otherwise than the RFC, when it does on purpose (a newer rule of a draft).
   * The scenario still counts as a difference from the RFC, listed with this reason.
   */
  mailproofDiffers?: string;
}

export type ReferenceScenario =
  | (BaseScenario & { kind: 'spf'; verdict: SpfVerdict })
  | (BaseScenario & { kind: 'dmarc'; verdict: string })
  | (BaseScenario & { kind: 'mx'; verdict: MxVerdict });

const spfCase = (id: string, record: string | string[], verdict: SpfVerdict, rule: string, extra: Record<string, StaticZoneEntry> = {}): ReferenceScenario => {
  const domain = `${id}.spf.test`;
  return {
    kind: 'spf',
    id: `spf/${id}`,
    domain,
    zone: { [domain]: { TXT: Array.isArray(record) ? record : [record], A: ['192.0.2.10'] }, ...extra },
    verdict,
    rule,
  };
};

const dmarcCase = (
  id: string,
  records: Record<string, string[]>,
  verdict: string,
  rule: string,
  domain = `${id}.dmarc.test`,
  mailauthDiffers?: string,
  mailproofDiffers?: string,
): ReferenceScenario => ({
  kind: 'dmarc',
  id: `dmarc/${id}`,
  domain,
  zone: Object.fromEntries([[domain, { A: ['192.0.2.10'] }], ...Object.entries(records).map(([name, txt]) => [name, { TXT: txt }])]),
  verdict,
  rule,
  ...(mailauthDiffers ? { mailauthDiffers } : {}),
  ...(mailproofDiffers ? { mailproofDiffers } : {}),
});

const mxCase = (id: string, entry: StaticZoneEntry, verdict: MxVerdict, rule: string, extra: Record<string, StaticZoneEntry> = {}): ReferenceScenario => {
  const domain = `${id}.mx.test`;
  return { kind: 'mx', id: `mx/${id}`, domain, zone: { [domain]: entry, ...extra }, verdict, rule };
};

const hosts = (count: number, under: string) => Array.from({ length: count }, (_, i) => ({ exchange: `h${i}.${under}`, priority: i }));
const lookups = (count: number) => Array.from({ length: count }, (_, i) => `a:h${i}.hosts.test`).join(' ');
const hostZone: Record<string, StaticZoneEntry> = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`h${i}.hosts.test`, { A: [`198.51.100.${i + 1}`] }]),
);
const target = (name: string, record: string): Record<string, StaticZoneEntry> => ({ [name]: { TXT: [record] } });

/** Why mailauth 4.13 answers otherwise, each read from its source (node_modules/mailauth/lib/...). */
const MAILAUTH_LATE_SYNTAX =
  'mailauth checks only mechanism names and modifier values before evaluating (lib/spf/spf-verify.js); an address or CIDR is checked when its term is evaluated, so an error after the deciding all is never seen. RFC 7208 4.6: a syntax error anywhere is a permerror, without evaluation.';
const MAILAUTH_MODIFIER_NAME =
  'mailauth tests modifier names with /^[a-z](a-z0-9-_\\.)*/ (lib/spf/spf-verify.js: a group, not a character class), which any name starting with a letter passes; RFC 7208 12: name = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." ).';
const MAILAUTH_IP6_FAMILY =
  'mailauth skips an ip6 term whose address is IPv4 as not matching (lib/spf/spf-verify.js compares address families before anything else); RFC 7208 5.6: ip6 takes an IPv6 address, anything else is a syntax error.';
const MAILAUTH_EXP_TWICE =
  'mailauth rejects only a repeated redirect= (lib/spf/spf-verify.js: "more than 1 redirect found"); RFC 7208 6: exp= must not appear more than once either.';
const differs = (scenario: ReferenceScenario, mailauthDiffers: string): ReferenceScenario => ({ ...scenario, mailauthDiffers });

/** mailauth 4.13 reads DMARC with lib/dmarc/get-dmarc-record.js, which takes p= and sp= as written. */
const MAILAUTH_NO_6_6_3 =
  'mailauth takes p=/sp= as written (lib/dmarc/get-dmarc-record.js: no validation), so it reports a policy that is not one, or none at all; RFC 7489 6.6.3 says a record without a valid p= (or with an invalid sp=) acts as p=none when it has a valid rua=, and applies no DMARC otherwise.';

export const REFERENCE_SCENARIOS: ReferenceScenario[] = [
  // Issue 19, items 11-14.
  spfCase('issue-mx-eleven', 'v=spf1 mx -all', 'permerror', 'RFC 7208 4.6.4: an mx with more than 10 MX hosts is a permerror', {
    'issue-mx-eleven.spf.test': { TXT: ['v=spf1 mx -all'], MX: hosts(11, 'hosts.test') },
    ...hostZone,
  }),
  spfCase('issue-mx-ten', 'v=spf1 mx -all', 'fail', 'RFC 7208 4.6.4: 10 MX hosts are within the limit', {
    'issue-mx-ten.spf.test': { TXT: ['v=spf1 mx -all'], MX: hosts(10, 'hosts.test') },
    ...hostZone,
  }),
  spfCase(
    'issue-macro-include',
    'v=spf1 include:_spf.%{d} -all',
    'permerror',
    'RFC 7208 7 and 4.6.4: the macro expands to _spf.<domain>, whose 11 lookups count',
    {
      '_spf.issue-macro-include.spf.test': { TXT: [`v=spf1 ${lookups(11)} -all`] },
      ...hostZone,
    },
  ),
  spfCase('issue-macro-ok', 'v=spf1 include:_spf.%{o} ~all', 'softfail', 'RFC 7208 7: %{o} expands to the sender domain; 3 lookups', {
    '_spf.issue-macro-ok.spf.test': { TXT: [`v=spf1 ${lookups(2)} -all`] },
    ...hostZone,
  }),
  spfCase('issue-macro-exists', 'v=spf1 exists:%{d}.allow.test -all', 'pass', 'RFC 7208 5.7 and 7: exists with an expanded domain', {
    'issue-macro-exists.spf.test.allow.test': { A: ['127.0.0.2'] },
  }),
  spfCase(
    'issue-macro-redirect',
    'v=spf1 redirect=%{d1r}.%{d}.redirect.test',
    'permerror',
    'RFC 7208 6.1: redirect to a name with no SPF record is a permerror',
    {},
  ),
  differs(
    spfCase(
      'issue-syntax-after-all',
      'v=spf1 -all ip4:192.0.2.0/40',
      'permerror',
      'RFC 7208 4.6: a syntax error anywhere in the record is a permerror, even after all',
    ),
    MAILAUTH_LATE_SYNTAX,
  ),
  spfCase('issue-unknown-after-all', 'v=spf1 ~all foo:bar.test', 'permerror', 'RFC 7208 4.6 and 5: an unknown mechanism anywhere is a permerror'),
  spfCase('issue-plus-all', 'v=spf1 +all', 'pass', 'RFC 7208 5.1: +all is valid SPF (it passes everyone; a policy problem, not a syntax one)'),
  spfCase('issue-bare-all', 'v=spf1 mx all', 'pass', 'RFC 7208 5.1: a bare all is +all, valid SPF'),

  // After the RFC 7208 test suite: record lookup and selection (4.4, 4.5).
  spfCase('nospf', 'some other text', 'none', 'RFC 7208 4.5: no v=spf1 record gives none'),
  spfCase('two-records', ['v=spf1 -all', 'v=spf1 ~all'], 'permerror', 'RFC 7208 4.5: more than one record is a permerror'),
  spfCase('nospace', 'v=spf1mx -all', 'none', 'RFC 7208 4.5: "v=spf1" must be followed by a space or the end'),
  spfCase('empty', 'v=spf1', 'neutral', 'RFC 7208 4.7: a record with no terms gives neutral'),
  spfCase('upper-version', 'V=SPF1 -all', 'fail', 'RFC 7208 4.5 and RFC 5234 2.3: the version string is case-insensitive'),
  {
    ...spfCase('txt-timeout', 'v=spf1 -all', 'temperror', 'RFC 7208 4.4: a DNS failure reading the record is a temperror'),
    zone: { 'txt-timeout.spf.test': { fail: 'timeout' } },
  },
  // Evaluation of records (4.6, 5).
  differs(
    spfCase('detect-errors-anywhere', 'v=spf1 -all ip4:192.0.2.0/33', 'permerror', 'RFC 7208 4.6: syntax errors anywhere in the record'),
    MAILAUTH_LATE_SYNTAX,
  ),
  spfCase('modifier-charset-good', 'v=spf1 -all foo-bar.baz_2=value', 'fail', 'RFC 7208 12: modifier names may hold - . _'),
  differs(spfCase('modifier-charset-bad', 'v=spf1 -all foo%bar=value', 'permerror', 'RFC 7208 12: % is not a name character'), MAILAUTH_MODIFIER_NAME),
  spfCase(
    'redirect-ignored-with-all',
    'v=spf1 -all redirect=plus.spf-targets.test',
    'fail',
    'RFC 7208 6.1: redirect= is ignored when the record has all',
    target('plus.spf-targets.test', 'v=spf1 +all'),
  ),
  spfCase('unknown-modifier', 'v=spf1 default=+ -all', 'fail', 'RFC 7208 6: unknown modifiers are ignored'),
  spfCase('invalid-domain-toplabel', 'v=spf1 a:example.-test -all', 'permerror', 'RFC 7208 7.1: a toplabel never starts with a hyphen'),
  spfCase('invalid-domain-empty-label', 'v=spf1 a:foo..example.test -all', 'permerror', 'RFC 7208 4.3 and 7.1: an empty label is not a domain'),
  // all (5.1).
  spfCase('all-dot', 'v=spf1 -all.', 'permerror', 'RFC 7208 5.1: all takes nothing after it'),
  spfCase('all-arg', 'v=spf1 -all:foo.test', 'permerror', 'RFC 7208 5.1: all takes no domain'),
  spfCase('all-cidr', 'v=spf1 all/8', 'permerror', 'RFC 7208 5.1: all takes no CIDR length'),
  spfCase('all-neutral', 'v=spf1 ?all', 'neutral', 'RFC 7208 5.1: ?all is neutral'),
  spfCase('all-double', 'v=spf1 -all -all', 'fail', 'RFC 7208 4.6.2: the first all matches; the rest is well formed'),
  // include (5.2).
  spfCase('include-none', 'v=spf1 include:nothing.spf-targets.test -all', 'permerror', 'RFC 7208 5.2: an include target without SPF is a permerror', {
    'nothing.spf-targets.test': { A: ['192.0.2.1'] },
  }),
  spfCase(
    'include-syntax-error',
    'v=spf1 include:broken.spf-targets.test -all',
    'permerror',
    'RFC 7208 5.2: a permerror in the include target is a permerror',
    target('broken.spf-targets.test', 'v=spf1 ip4:1.2.3 -all'),
  ),
  spfCase(
    'include-cidr',
    'v=spf1 include:fail.spf-targets.test/24 -all',
    'permerror',
    'RFC 7208 5.2: include takes no CIDR length',
    target('fail.spf-targets.test', 'v=spf1 -all'),
  ),
  spfCase('include-empty-domain', 'v=spf1 include: -all', 'permerror', 'RFC 7208 5.2: include needs a domain'),
  spfCase(
    'include-softfail',
    'v=spf1 include:soft.spf-targets.test -all',
    'fail',
    'RFC 7208 5.2: an include that does not match goes on',
    target('soft.spf-targets.test', 'v=spf1 ~all'),
  ),
  {
    ...spfCase('include-temperror', 'v=spf1 include:slow.spf-targets.test -all', 'temperror', 'RFC 7208 5.2: a temperror in the include target is a temperror'),
    zone: { 'include-temperror.spf.test': { TXT: ['v=spf1 include:slow.spf-targets.test -all'] }, 'slow.spf-targets.test': { fail: 'timeout' } },
  },
  // a (5.3).
  spfCase('a-cidr4-33', 'v=spf1 a/33 -all', 'permerror', 'RFC 7208 5.6: an IPv4 CIDR length is at most 32'),
  spfCase('a-cidr6-129', 'v=spf1 a//129 -all', 'permerror', 'RFC 7208 5.6: an IPv6 CIDR length is at most 128'),
  spfCase('a-dual-cidr', 'v=spf1 a/24//64 -all', 'fail', 'RFC 7208 5.6: a dual CIDR length on a is fine'),
  spfCase('a-numeric', 'v=spf1 a:192.0.2.1 -all', 'permerror', 'RFC 7208 7.1: a toplabel is not all digits'),
  spfCase('a-only-toplabel', 'v=spf1 a:museum -all', 'permerror', 'RFC 7208 7.1: a domain-spec ends in "." toplabel'),
  spfCase('a-bad-toplabel', 'v=spf1 a:foo.example.123 -all', 'permerror', 'RFC 7208 7.1: a toplabel is not all digits'),
  spfCase('a-dash-in-toplabel', 'v=spf1 a:foo.example.xn--zckzah -all', 'fail', 'RFC 7208 7.1: a toplabel may hold inner hyphens'),
  spfCase('a-empty-domain', 'v=spf1 a: -all', 'permerror', 'RFC 7208 5.3: a: needs a domain'),
  // mx (5.4).
  spfCase('mx-empty-domain', 'v=spf1 mx: -all', 'permerror', 'RFC 7208 5.4: mx: needs a domain'),
  spfCase('mx-cidr4-33', 'v=spf1 mx/33 -all', 'permerror', 'RFC 7208 5.6: an IPv4 CIDR length is at most 32'),
  spfCase('mx-implicit', 'v=spf1 mx -all', 'fail', 'RFC 7208 5.4: mx does not use the implicit MX; no MX is no match'),
  spfCase('mx-limit', 'v=spf1 mx:many.hosts-zone.test -all', 'permerror', 'RFC 7208 4.6.4: more than 10 MX hosts is a permerror', {
    'many.hosts-zone.test': { MX: hosts(12, 'hosts.test') },
    ...hostZone,
  }),
  // ptr (5.5).
  spfCase('ptr-cidr', 'v=spf1 ptr:example.test/24 -all', 'permerror', 'RFC 7208 5.5: ptr takes no CIDR length'),
  spfCase('ptr-empty-domain', 'v=spf1 ptr: -all', 'permerror', 'RFC 7208 5.5: ptr: needs a domain'),
  // ip4 and ip6 (5.6).
  spfCase('cidr4-0', 'v=spf1 ip4:192.0.2.1/0 -all', 'pass', 'RFC 7208 5.6: /0 is a valid length'),
  spfCase('cidr4-33', 'v=spf1 ip4:192.0.2.1/33 -all', 'permerror', 'RFC 7208 5.6: an IPv4 CIDR length is at most 32'),
  spfCase('cidr4-032', 'v=spf1 ip4:192.0.2.1/032 -all', 'permerror', 'RFC 7208 12: ip4-cidr-length has no leading zeros'),
  spfCase('bare-ip4', 'v=spf1 ip4 -all', 'permerror', 'RFC 7208 5.6: ip4 needs a network'),
  spfCase('bad-ip4-port', 'v=spf1 ip4:192.0.2.1:8080 -all', 'permerror', 'RFC 7208 5.6: an address has no port'),
  spfCase('bad-ip4-short', 'v=spf1 ip4:192.0.2 -all', 'permerror', 'RFC 7208 5.6: an IPv4 address has four parts'),
  spfCase('ip4-dual-cidr', 'v=spf1 ip4:192.0.2.1//32 -all', 'permerror', 'RFC 7208 5.6: ip4 takes no IPv6 length'),
  spfCase('bare-ip6', 'v=spf1 ip6 -all', 'permerror', 'RFC 7208 5.6: ip6 needs a network'),
  spfCase('cidr6-129', 'v=spf1 ip6:2001:db8::/129 -all', 'permerror', 'RFC 7208 5.6: an IPv6 CIDR length is at most 128'),
  spfCase('cidr6-ok', 'v=spf1 ip6:2001:db8::/32 -all', 'fail', 'RFC 7208 5.6: a valid IPv6 network'),
  differs(spfCase('ip6-not-an-address', 'v=spf1 ip6:192.0.2.1 -all', 'permerror', 'RFC 7208 5.6: ip6 needs an IPv6 address'), MAILAUTH_IP6_FAMILY),
  // exists (5.7).
  spfCase('exists-empty-domain', 'v=spf1 exists: -all', 'permerror', 'RFC 7208 5.7: exists needs a domain'),
  spfCase('exists-implicit', 'v=spf1 exists -all', 'permerror', 'RFC 7208 5.7: exists has no default domain'),
  spfCase('exists-cidr', 'v=spf1 exists:mail.example.test/24 -all', 'permerror', 'RFC 7208 5.7: exists takes no CIDR length'),
  // Modifiers (6) and macros (7).
  spfCase('redirect-none', 'v=spf1 redirect=nothing.spf-targets.test', 'permerror', 'RFC 7208 6.1: a redirect target without SPF is a permerror', {
    'nothing.spf-targets.test': { A: ['192.0.2.1'] },
  }),
  spfCase(
    'redirect-twice',
    'v=spf1 redirect=fail.spf-targets.test redirect=fail.spf-targets.test',
    'permerror',
    'RFC 7208 6: redirect= at most once',
    target('fail.spf-targets.test', 'v=spf1 -all'),
  ),
  differs(spfCase('exp-twice', 'v=spf1 -all exp=one.example.test exp=two.example.test', 'permerror', 'RFC 7208 6: exp= at most once'), MAILAUTH_EXP_TWICE),
  spfCase('exp-empty-domain', 'v=spf1 -all exp=', 'permerror', 'RFC 7208 6.2: exp= needs a domain'),
  spfCase('invalid-modifier-name', 'v=spf1 1up=foo -all', 'permerror', 'RFC 7208 12: a name starts with a letter'),
  spfCase('empty-modifier-name', 'v=spf1 =all', 'permerror', 'RFC 7208 12: a modifier has a name'),
  spfCase('unknown-modifier-bad-macro', 'v=spf1 -all foo=%abc', 'permerror', 'RFC 7208 7.1: % starts a macro (%{...}, %%, %_, %-)'),
  spfCase('invalid-macro-letter', 'v=spf1 -all exp=%{x}.example.test', 'permerror', 'RFC 7208 7.1: x is not a macro letter'),
  spfCase('invalid-trailing-macro', 'v=spf1 -all exp=e.example.test%', 'permerror', 'RFC 7208 7.1: a lone % is not a macro'),
  // Processing limits (4.6.4).
  spfCase(
    'redirect-loop',
    'v=spf1 redirect=loop.spf-targets.test',
    'permerror',
    'RFC 7208 4.6.4: a redirect loop ends in a permerror',
    target('loop.spf-targets.test', 'v=spf1 redirect=redirect-loop.spf.test'),
  ),
  spfCase(
    'include-loop',
    'v=spf1 include:back.spf-targets.test -all',
    'permerror',
    'RFC 7208 4.6.4: an include loop ends in a permerror',
    target('back.spf-targets.test', 'v=spf1 include:include-loop.spf.test -all'),
  ),
  spfCase('mech-at-limit', `v=spf1 ${lookups(10)} -all`, 'fail', 'RFC 7208 4.6.4: 10 lookups are allowed', hostZone),
  spfCase('mech-over-limit', `v=spf1 ${lookups(11)} -all`, 'permerror', 'RFC 7208 4.6.4: the 11th lookup is a permerror', hostZone),
  spfCase('include-over-limit', `v=spf1 include:nine.spf-targets.test a -all`, 'permerror', 'RFC 7208 4.6.4: lookups in includes count', {
    ...target('nine.spf-targets.test', `v=spf1 ${lookups(9)} -all`),
    ...hostZone,
  }),
  spfCase('void-at-limit', 'v=spf1 a:gone1.void.test a:gone2.void.test -all', 'fail', 'RFC 7208 4.6.4: 2 void lookups are allowed'),
  spfCase(
    'void-over-limit',
    'v=spf1 a:gone1.void.test a:gone2.void.test a:gone3.void.test -all',
    'permerror',
    'RFC 7208 4.6.4: the 3rd void lookup is a permerror',
  ),

  // DMARC (issue 19 item 15; RFC 7489 6.3, 6.6.3; the DMARCbis tree walk).
  dmarcCase('reject', { '_dmarc.reject.dmarc.test': ['v=DMARC1; p=reject; rua=mailto:r@reject.dmarc.test'] }, 'reject', 'RFC 7489 6.3'),
  dmarcCase('missing', {}, '', 'RFC 7489 6.6.3: no record, no DMARC'),
  dmarcCase('two-records', { '_dmarc.two-records.dmarc.test': ['v=DMARC1; p=reject', 'v=DMARC1; p=none'] }, '', 'RFC 7489 6.6.3: several records are none'),
  dmarcCase(
    'bad-pct',
    { '_dmarc.bad-pct.dmarc.test': ['v=DMARC1; p=reject; pct=abc; rua=mailto:r@bad-pct.dmarc.test'] },
    'reject',
    'RFC 7489 6.3: a syntax error in an optional tag is discarded; the defaults apply',
  ),
  dmarcCase(
    'bad-adkim',
    { '_dmarc.bad-adkim.dmarc.test': ['v=DMARC1; p=quarantine; adkim=x; aspf=strict'] },
    'quarantine',
    'RFC 7489 6.3: a syntax error in an optional tag is discarded',
  ),
  dmarcCase(
    'malformed-part',
    { '_dmarc.malformed-part.dmarc.test': ['v=DMARC1; p=reject; nonsense; rua=mailto:r@malformed-part.dmarc.test'] },
    'reject',
    'RFC 7489 6.3: what is not a tag is discarded',
  ),
  dmarcCase('unknown-tag', { '_dmarc.unknown-tag.dmarc.test': ['v=DMARC1; p=quarantine; foo=bar'] }, 'quarantine', 'RFC 7489 6.3: unknown tags are ignored'),
  dmarcCase(
    'no-p-with-rua',
    { '_dmarc.no-p-with-rua.dmarc.test': ['v=DMARC1; rua=mailto:r@no-p-with-rua.dmarc.test'] },
    'none',
    'RFC 7489 6.6.3: no p= but a valid rua= acts as p=none',
    undefined,
    MAILAUTH_NO_6_6_3,
  ),
  dmarcCase(
    'bad-p-with-rua',
    { '_dmarc.bad-p-with-rua.dmarc.test': ['v=DMARC1; p=maybe; rua=mailto:r@bad-p-with-rua.dmarc.test'] },
    'none',
    'RFC 7489 6.6.3: an invalid p= with a valid rua= acts as p=none',
    undefined,
    MAILAUTH_NO_6_6_3,
  ),
  dmarcCase(
    'bad-p-no-rua',
    { '_dmarc.bad-p-no-rua.dmarc.test': ['v=DMARC1; p=maybe'] },
    '',
    'RFC 7489 6.6.3: an invalid p= without a valid rua= applies no DMARC',
    undefined,
    MAILAUTH_NO_6_6_3,
  ),
  dmarcCase(
    'bad-sp-with-rua',
    { '_dmarc.bad-sp-with-rua.dmarc.test': ['v=DMARC1; p=reject; sp=never; rua=mailto:r@bad-sp-with-rua.dmarc.test'] },
    'none',
    'RFC 7489 6.6.3: an invalid sp= with a valid rua= acts as p=none',
    undefined,
    MAILAUTH_NO_6_6_3,
  ),
  dmarcCase(
    'org-sp',
    { '_dmarc.org.test': ['v=DMARC1; p=reject; sp=quarantine'] },
    'quarantine',
    "RFC 7489 6.6.3: a subdomain takes the organizational domain's sp=",
    'news.org.test',
  ),
  dmarcCase(
    'tree-walk',
    { '_dmarc.b.walk.test': ['v=DMARC1; p=reject; sp=reject'] },
    '',
    'RFC 7489 3.2 and 6.6.3: no record at _dmarc.a.b.walk.test, and the organizational domain (public suffix list: walk.test) has none, so no DMARC applies',
    'a.b.walk.test',
    undefined,
    'Newer rule chosen on purpose: the DMARCbis draft (draft-ietf-dmarc-dmarcbis, "DNS Tree Walk") asks each parent, so Mailproof finds _dmarc.b.walk.test and reports reject; RFC 7489 3.2 asks only the organizational domain (docs/deliverability.md).',
  ),

  // MX (issue 19 item 16; RFC 5321 5.1, RFC 7505). mailauth does not evaluate MX.
  mxCase('published', { MX: [{ exchange: 'mail.published.mx.test', priority: 10 }] }, 'mx', 'RFC 5321 5.1', {
    'mail.published.mx.test': { A: ['192.0.2.25'] },
  }),
  mxCase('implicit-a', { A: ['192.0.2.25'], TXT: ['v=spf1 -all'] }, 'implicit', 'RFC 5321 5.1: no MX but an address record is the implicit MX'),
  mxCase('implicit-aaaa', { AAAA: ['2001:db8::25'] }, 'implicit', 'RFC 5321 5.1: an AAAA record is an implicit MX too'),
  mxCase('nothing', { TXT: ['v=spf1 -all'] }, 'none', 'RFC 5321 5.1: no MX and no address: mail cannot be delivered'),
  mxCase('null', { MX: [{ exchange: '', priority: 0 }] }, 'null', 'RFC 7505: a null MX accepts no mail'),
];
