import type { CheckOutcome, DkimKey, DkimSummary, DnsIssue } from './deliverability-result';
import { checkMessage, statusFromIssues } from './deliverability-result';
import { describeFailure, type DnsResolver } from './dns-resolver.port';
import { isValidDkimSelector } from './normalize-domain';
import { decodeBase64, rsaKeyBits } from './public-key-size';
import { parseTagList } from './tag-list';

/**
 * Selectors probed on every audit, besides the ones the caller names. DKIM keys cannot be listed,
 * only guessed, so these are the defaults of widely used mail providers and software
 * (docs/deliverability.md names the provider behind each).
 */
export const COMMON_DKIM_SELECTORS: readonly string[] = [
  'default', // cPanel, Plesk, many self-hosted setups
  'dkim', // generic
  'mail', // generic, OpenDKIM examples
  'selector1', // Microsoft 365
  'selector2', // Microsoft 365 (rotation)
  'google', // Google Workspace
  'k1', // Mailchimp / Mandrill, Klaviyo
  'k2', // Mailchimp / Mandrill (rotation)
  'k3',
  's1', // SendGrid
  's2', // SendGrid (rotation)
  'smtp', // Mailgun's older default
  'mx', // Mailgun
  'mandrill', // Mandrill
  'mailjet', // Mailjet
  'zoho', // Zoho Mail
  'sig1', // iCloud custom domains
  'protonmail', // Proton Mail
  'protonmail2',
  'protonmail3',
  'fm1', // Fastmail
  'fm2',
  'fm3',
  'everlytickey1', // Everlytic
  'mxvault', // MXroute / MXvault
];

export const DKIM_MIN_KEY_BITS = 1024; // RFC 8301: verifiers must not accept smaller RSA keys.
export const DKIM_RECOMMENDED_KEY_BITS = 2048;

interface SelectorProbe {
  selector: string;
  given: boolean;
  outcome: 'error' | 'absent' | 'key';
  key?: DkimKey;
  /** Problems with this selector's record; severities are settled once all probes are back. */
  problems: Array<{ rule: string; fatal: boolean; message: string }>;
  failure?: string;
}

function readKey(selector: string, records: string[]): Pick<SelectorProbe, 'key' | 'problems'> & { found: boolean } {
  // A DKIM key record has a p= tag; other TXT records at the name are ignored.
  const candidates = records.filter((record) => /(^|;)\s*p\s*=/i.test(record));
  if (candidates.length === 0) return { found: false, problems: [] };
  const problems: SelectorProbe['problems'] = [];
  if (candidates.length > 1)
    problems.push({
      rule: 'dkim_multiple_records',
      fatal: true,
      message: `Selector ${selector} has ${candidates.length} DKIM records; verifiers may pick either.`,
    });
  const { tags, order, duplicates } = parseTagList(candidates[0]);
  const version = tags.get('v');
  if (version !== undefined && (version !== 'DKIM1' || order[0] !== 'v')) {
    problems.push({ rule: 'dkim_syntax', fatal: true, message: `Selector ${selector}: v= must be "DKIM1" and come first.` });
  }
  if (duplicates.length > 0) problems.push({ rule: 'dkim_syntax', fatal: true, message: `Selector ${selector} repeats the tag ${duplicates[0]}=.` });
  const keyType = (tags.get('k') ?? 'rsa').toLowerCase();
  const p = (tags.get('p') ?? '').replace(/\s+/g, '');
  const testing = (tags.get('t') ?? '')
    .split(':')
    .map((flag) => flag.trim().toLowerCase())
    .includes('y');
  const key: DkimKey = { selector, keyType, bits: null, revoked: p === '', testing };
  if (key.revoked) {
    problems.push({ rule: 'dkim_key_revoked', fatal: true, message: `Selector ${selector} has an empty p=: the key is revoked and signatures with it fail.` });
    return { found: true, key, problems };
  }
  const bytes = decodeBase64(p);
  if (keyType === 'rsa') {
    key.bits = bytes ? rsaKeyBits(bytes) : null;
    if (key.bits === null) problems.push({ rule: 'dkim_invalid_key', fatal: true, message: `Selector ${selector}: p= is not a readable RSA public key.` });
    else if (key.bits < DKIM_MIN_KEY_BITS) {
      problems.push({
        rule: 'dkim_weak_key',
        fatal: true,
        message: `Selector ${selector} has a ${key.bits}-bit RSA key; receivers ignore keys under ${DKIM_MIN_KEY_BITS} bits (RFC 8301). Use ${DKIM_RECOMMENDED_KEY_BITS} bits.`,
      });
    } else if (key.bits < DKIM_RECOMMENDED_KEY_BITS) {
      problems.push({
        rule: 'dkim_weak_key',
        fatal: false,
        message: `Selector ${selector} has a ${key.bits}-bit RSA key; ${DKIM_RECOMMENDED_KEY_BITS} bits is the current recommendation.`,
      });
    }
  } else if (keyType === 'ed25519') {
    key.bits = bytes && bytes.length === 32 ? 256 : null;
    if (key.bits === null) problems.push({ rule: 'dkim_invalid_key', fatal: true, message: `Selector ${selector}: p= is not a 32-byte Ed25519 key.` });
  } else {
    problems.push({ rule: 'dkim_unknown_key_type', fatal: true, message: `Selector ${selector} uses the unknown key type k=${keyType}.` });
  }
  const hashes = tags.get('h');
  if (
    hashes !== undefined &&
    !hashes
      .toLowerCase()
      .split(':')
      .map((h) => h.trim())
      .includes('sha256')
  ) {
    problems.push({ rule: 'dkim_sha1_only', fatal: true, message: `Selector ${selector} allows only h=${hashes}; receivers require sha256 (RFC 8301).` });
  }
  if (testing)
    problems.push({ rule: 'dkim_testing', fatal: false, message: `Selector ${selector} is in test mode (t=y): receivers may treat its signatures as absent.` });
  return { found: true, key, problems };
}

/**
 * Probes `<selector>._domainkey.<domain>` for the given selectors and the common ones. A broken
 * key at a selector the caller named is an error; at a guessed selector it is only a warning
 * when a working key exists elsewhere (old, unused keys are common and harmless).
 */
export async function evaluateDkim(domain: string, resolver: DnsResolver, selectors: readonly string[] = []): Promise<CheckOutcome<DkimSummary>> {
  const given = [...new Set(selectors.map((s) => s.trim().toLowerCase()).filter(isValidDkimSelector))];
  const probesWanted = [
    ...given.map((selector) => ({ selector, given: true })),
    ...COMMON_DKIM_SELECTORS.filter((s) => !given.includes(s)).map((selector) => ({ selector, given: false })),
  ];
  const probes: SelectorProbe[] = await Promise.all(
    probesWanted.map(async ({ selector, given: isGiven }): Promise<SelectorProbe> => {
      const lookup = await resolver.txt(`${selector}._domainkey.${domain}`);
      if (lookup.status === 'error') return { selector, given: isGiven, outcome: 'error', problems: [], failure: describeFailure(lookup) };
      if (lookup.status !== 'ok') return { selector, given: isGiven, outcome: 'absent', problems: [] };
      const read = readKey(selector, lookup.records);
      return read.found
        ? { selector, given: isGiven, outcome: 'key', key: read.key, problems: read.problems }
        : { selector, given: isGiven, outcome: 'absent', problems: [] };
    }),
  );
  const withKeys = probes.filter((probe) => probe.outcome === 'key');
  const working = withKeys.filter((probe) => !probe.problems.some((problem) => problem.fatal));
  const keys = withKeys.map((probe) => probe.key as DkimKey).sort((a, b) => (a.selector < b.selector ? -1 : a.selector > b.selector ? 1 : 0));
  const issues: DnsIssue[] = [];
  for (const probe of withKeys) {
    for (const problem of probe.problems) {
      const severity = problem.fatal && (probe.given || working.length === 0) ? 'error' : 'warning';
      issues.push({ check: 'dkim', rule: problem.rule, severity, message: problem.message });
    }
  }
  for (const probe of probes.filter((p) => p.given && p.outcome === 'absent')) {
    issues.push({ check: 'dkim', rule: 'dkim_selector_missing', severity: 'error', message: `No DKIM key at ${probe.selector}._domainkey.${domain}.` });
  }
  const failed = probes.filter((probe) => probe.outcome === 'error');
  const best = working[0];
  const summary: DkimSummary = { valid: best !== undefined, selector: best?.selector ?? '', keys };
  const givenMissing = probes.some((p) => p.given && p.outcome === 'absent');
  if (!best && withKeys.length === 0 && !givenMissing) {
    // Nothing found: a failed lookup means we cannot conclude; a clean miss of every guess warns.
    if (failed.length > 0) {
      return {
        summary,
        check: { status: 'skip', message: `DKIM not checked: ${failed[0].failure} (${failed.length} of ${probes.length} selectors).` },
        issues,
      };
    }
    issues.push({
      check: 'dkim',
      rule: 'dkim_not_found',
      severity: 'warning',
      message: `No DKIM key at any of ${probes.length} common selectors of ${domain}; name your selector in dkimSelectors to check it.`,
    });
  }
  if (failed.length > 0) {
    issues.push({
      check: 'dkim',
      rule: 'dkim_lookup_failed',
      severity: 'info',
      message: `${failed.length} selector(s) could not be looked up: ${failed[0].failure}.`,
    });
  }
  const status = statusFromIssues(issues);
  const message = checkMessage(
    issues,
    `DKIM key found at selector ${best?.selector ?? ''}${best?.key?.bits ? ` (${best.key.keyType} ${best.key.bits} bits)` : ''}.`,
  );
  return { summary, check: { status, message }, issues };
}
