import { generateKeyPairSync } from 'node:crypto';
import type { FixtureZone } from './unbound-server';

/** base64 DER SubjectPublicKeyInfo of a fresh RSA key: the p= of a DKIM record. */
export function rsaDkimKey(bits: number): string {
  return generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}

/** A domain with every record right (score 100), under any name. */
export function healthyDomain(domain: string, dkimKey: string, overrides: FixtureZone = {}): FixtureZone {
  return {
    [domain]: {
      MX: [
        { exchange: `mx1.${domain}`, priority: 10 },
        { exchange: `mx2.${domain}`, priority: 20 },
      ],
      TXT: ['v=spf1 include:_spf.provider.test mx -all'],
    },
    [`mx1.${domain}`]: { A: ['192.0.2.10'] },
    [`mx2.${domain}`]: { A: ['192.0.2.11'] },
    [`selector1._domainkey.${domain}`]: { TXT: [`v=DKIM1; k=rsa; p=${dkimKey}`] },
    [`_dmarc.${domain}`]: { TXT: [`v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`] },
    [`default._bimi.${domain}`]: { TXT: [`v=BIMI1; l=https://${domain}/logo.svg; a=https://${domain}/vmc.pem`] },
    ...overrides,
  };
}

/**
 * The fixture zones of the issue: a healthy domain, SPF with 11 lookups, two SPF records, +all,
 * missing DMARC, p=none, a weak DKIM key, a null MX, a BIMI record; issue 19's SPF macro hiding 11
 * lookups, a domain with only an implicit MX and a DMARC record with rua= but no p=; `slow.test` is
 * delegated to a server that never answers (the name that times out).
 */
export function deliverabilityFixtures(): { records: FixtureZone; silentZones: string[] } {
  const strong = rsaDkimKey(2048);
  const weak = rsaDkimKey(1024);
  const eleven: FixtureZone = {};
  // 6 includes, each with one `a` lookup of its own, minus one: 6 + 5 = 11.
  for (let i = 0; i < 6; i++)
    eleven[`i${i}.eleven.test`] = { TXT: [i < 5 ? `v=spf1 a ip4:198.51.100.${i} -all` : 'v=spf1 ip4:198.51.100.9 -all'], A: ['198.51.100.1'] };
  const withSpf = (domain: string, ...spf: string[]) =>
    healthyDomain(domain, strong, { [domain]: { MX: [{ exchange: `mx1.${domain}`, priority: 10 }], TXT: spf } });
  const records: FixtureZone = {
    '_spf.provider.test': { TXT: ['v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:1::/48 ~all'] },
    ...healthyDomain('healthy.test', strong),
    ...withSpf('spf-eleven.test', `v=spf1 ${Array.from({ length: 6 }, (_, i) => `include:i${i}.eleven.test`).join(' ')} -all`),
    ...eleven,
    ...withSpf('two-spf.test', 'v=spf1 mx -all', 'v=spf1 include:_spf.provider.test -all'),
    ...withSpf('plus-all.test', 'v=spf1 mx +all'),
    ...healthyDomain('no-dmarc.test', strong, { '_dmarc.no-dmarc.test': {} }),
    ...healthyDomain('dmarc-none.test', strong, { '_dmarc.dmarc-none.test': { TXT: ['v=DMARC1; p=none; rua=mailto:r@dmarc-none.test'] } }),
    ...healthyDomain('weak-dkim.test', strong, {
      'selector1._domainkey.weak-dkim.test': {},
      'google._domainkey.weak-dkim.test': { TXT: [`v=DKIM1; p=${weak}`] },
    }),
    ...healthyDomain('null-mx.test', strong, { 'null-mx.test': { MX: [{ exchange: '', priority: 0 }], TXT: ['v=spf1 -all'] } }),
    ...healthyDomain('no-bimi.test', strong, { 'default._bimi.no-bimi.test': {} }),
    // include:_spf.%{d} expands to _spf.spf-macro.test: 1 + 10 lookups.
    ...withSpf('spf-macro.test', 'v=spf1 include:_spf.%{d} -all'),
    '_spf.spf-macro.test': { TXT: [`v=spf1 ${Array.from({ length: 10 }, (_, i) => `a:i${i % 6}.eleven.test`).join(' ')} -all`] },
    ...healthyDomain('implicit-mx.test', strong, { 'implicit-mx.test': { A: ['192.0.2.30'], TXT: ['v=spf1 a -all'] } }),
    ...healthyDomain('dmarc-rua-only.test', strong, { '_dmarc.dmarc-rua-only.test': { TXT: ['v=DMARC1; rua=mailto:r@dmarc-rua-only.test'] } }),
  };
  return { records, silentZones: ['slow.test'] };
}
