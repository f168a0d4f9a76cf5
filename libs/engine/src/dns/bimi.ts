import type { BimiSummary, CheckOutcome, DmarcSummary, DnsIssue } from './deliverability-result';
import { checkMessage, statusFromIssues } from './deliverability-result';
import { describeFailure, type DnsResolver } from './dns-resolver.port';
import { parseTagList } from './tag-list';

export function isBimiRecord(txt: string): boolean {
  return /^v\s*=\s*BIMI1\s*(;|$)/i.test(txt.trim());
}

function isHttpsUrl(text: string): boolean {
  return /^https:\/\/[^\s/?#]+\.[^\s/?#]+(\/[^\s]*)?$/i.test(text);
}

/**
 * BIMI at `default._bimi.<domain>`. The logo and certificate URLs are reported, never fetched
 * (a later fetch must go through the SSRF guard). BIMI is optional: a missing record warns.
 */
export async function evaluateBimi(domain: string, resolver: DnsResolver, dmarc: DmarcSummary): Promise<CheckOutcome<BimiSummary>> {
  const empty: BimiSummary = { valid: false, indicatorUrl: '', authorityUrl: '' };
  const name = `default._bimi.${domain}`;
  const lookup = await resolver.txt(name);
  if (lookup.status === 'error') {
    return { summary: empty, check: { status: 'skip', message: `BIMI not checked: ${describeFailure(lookup)}.` }, issues: [] };
  }
  const records = lookup.status === 'ok' ? lookup.records.filter(isBimiRecord) : [];
  const issues: DnsIssue[] = [];
  const add = (rule: string, severity: DnsIssue['severity'], message: string) => issues.push({ check: 'bimi', rule, severity, message });
  if (records.length === 0) {
    add('bimi_missing', 'warning', `No BIMI record at ${name}: mailboxes that support BIMI show no brand logo.`);
    return { summary: empty, check: { status: 'warn', message: issues[0].message }, issues };
  }
  if (records.length > 1) {
    add('bimi_multiple_records', 'error', `${name} publishes ${records.length} BIMI records; there must be one.`);
    return { summary: empty, check: { status: 'fail', message: issues[0].message }, issues };
  }
  const { tags } = parseTagList(records[0]);
  const logo = tags.get('l') ?? '';
  const authority = tags.get('a') ?? '';
  if (logo === '' && authority === '') {
    add('bimi_declined', 'warning', `The BIMI record at ${name} declines to publish a logo (empty l= and a=).`);
  } else {
    if (!isHttpsUrl(logo)) add('bimi_invalid_logo', 'error', `l=${logo || '(empty)'} must be an https:// URL of an SVG Tiny PS logo.`);
    else if (!/\.svgz?(\?|$)/i.test(logo)) add('bimi_logo_not_svg', 'warning', `l=${logo} does not look like an SVG file; BIMI logos must be SVG Tiny PS.`);
    if (authority === '') add('bimi_no_certificate', 'info', 'No a= mark certificate (VMC/CMC): several large mailboxes show the logo only with one.');
    else if (!isHttpsUrl(authority)) add('bimi_invalid_certificate', 'error', `a=${authority} must be an https:// URL of a PEM certificate.`);
  }
  if (dmarc.policy !== 'quarantine' && dmarc.policy !== 'reject') {
    add('bimi_dmarc_not_enforced', 'warning', 'BIMI logos are shown only when DMARC is enforced (p=quarantine or p=reject).');
  } else if (/pct\s*=\s*(\d+)/i.test(dmarc.record) && Number(/pct\s*=\s*(\d+)/i.exec(dmarc.record)?.[1]) < 100) {
    add('bimi_dmarc_not_enforced', 'warning', 'BIMI logos are shown only when DMARC applies to all mail (pct=100).');
  }
  const status = statusFromIssues(issues);
  return {
    summary: { valid: status !== 'fail' && logo !== '', indicatorUrl: logo, authorityUrl: authority },
    check: { status, message: checkMessage(issues, `BIMI logo published at ${logo}.`) },
    issues,
  };
}
