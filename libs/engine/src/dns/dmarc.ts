import type { CheckOutcome, DmarcSummary, DnsIssue } from './deliverability-result';
import { checkMessage, statusFromIssues } from './deliverability-result';
import { describeFailure, type DnsResolver } from './dns-resolver.port';
import { parseTagList } from './tag-list';

const POLICIES = new Set(['none', 'quarantine', 'reject']);
/** DMARCbis bounds its tree walk to 8 queries; we never query the bare TLD. */
const MAX_TREE_WALK_QUERIES = 8;

export function isDmarcRecord(txt: string): boolean {
  return /^v\s*=\s*DMARC1\s*(;|$)/i.test(txt.trim());
}

/** `_dmarc.<domain>` first, then each parent short of the TLD (the DMARCbis tree walk replaces the public suffix list). */
function dmarcNames(domain: string): string[] {
  const labels = domain.split('.');
  const names: string[] = [];
  for (let i = 0; i < labels.length - 1 && names.length < MAX_TREE_WALK_QUERIES; i++) names.push(labels.slice(i).join('.'));
  return names;
}

export async function evaluateDmarc(domain: string, resolver: DnsResolver): Promise<CheckOutcome<DmarcSummary>> {
  const empty: DmarcSummary = { valid: false, policy: '', record: '', foundAt: '' };
  let found: { name: string; record: string } | null = null;
  for (const name of dmarcNames(domain)) {
    const lookup = await resolver.txt(`_dmarc.${name}`);
    if (lookup.status === 'error') {
      return { summary: empty, check: { status: 'skip', message: `DMARC not checked: ${describeFailure(lookup)} for _dmarc.${name}.` }, issues: [] };
    }
    const records = lookup.status === 'ok' ? lookup.records.filter(isDmarcRecord) : [];
    if (records.length > 1) {
      const issue: DnsIssue = {
        check: 'dmarc',
        rule: 'dmarc_multiple_records',
        severity: 'error',
        message: `_dmarc.${name} publishes ${records.length} DMARC records; receivers then apply none of them.`,
      };
      return { summary: { ...empty, foundAt: `_dmarc.${name}` }, check: { status: 'fail', message: issue.message }, issues: [issue] };
    }
    if (records.length === 1) {
      found = { name, record: records[0].trim() };
      break;
    }
  }
  if (!found) {
    const issue: DnsIssue = {
      check: 'dmarc',
      rule: 'dmarc_missing',
      severity: 'error',
      message: `No DMARC record at _dmarc.${domain}: receivers get no policy for mail that fails SPF and DKIM.`,
    };
    return { summary: empty, check: { status: 'fail', message: issue.message }, issues: [issue] };
  }

  const inherited = found.name !== domain;
  const at = `_dmarc.${found.name}`;
  const { tags, duplicates, malformed } = parseTagList(found.record);
  const issues: DnsIssue[] = [];
  const add = (rule: string, severity: DnsIssue['severity'], message: string) => issues.push({ check: 'dmarc', rule, severity, message });
  // RFC 7489 6.3: syntax errors in the rest of the record are discarded and the defaults apply.
  for (const part of malformed) add('dmarc_syntax', 'warning', `The DMARC record at ${at} has a malformed part "${part}"; receivers ignore it.`);
  for (const tag of duplicates) add('dmarc_syntax', 'warning', `The DMARC record at ${at} repeats ${tag}=; receivers may use either value.`);

  const rua = tags.get('rua');
  const ruaValid = rua !== undefined && rua.split(',').some((uri) => /^mailto:[^@\s]+@[^@\s]+/i.test(uri.trim()));
  const p = tags.get('p')?.toLowerCase();
  const sp = tags.get('sp')?.toLowerCase();
  const pValid = p !== undefined && POLICIES.has(p);
  const spValid = sp === undefined || POLICIES.has(sp);
  // RFC 7489 6.3 makes p= required and 6.6.3 says what receivers do with a record without a valid
  // one (or with an invalid sp=): act as if it said p=none when rua= holds a valid address, so the
  // owner still gets reports, and apply no DMARC otherwise. Either way the record is not valid.
  let policy: string;
  let usable = true;
  if (!pValid || !spValid) {
    const what = !pValid ? (p === undefined ? 'has no p= tag' : `has p=${p}, which is not none, quarantine or reject`) : `has sp=${sp}, which is not a policy`;
    usable = false;
    if (ruaValid) {
      add(
        'dmarc_invalid_policy',
        'error',
        `The DMARC record at ${at} ${what}, so it is not valid: receivers act as if it said p=none (RFC 7489 6.6.3) and only send reports. Set p=quarantine or p=reject.`,
      );
      policy = 'none';
    } else {
      add('dmarc_invalid_policy', 'error', `The DMARC record at ${at} ${what} and has no valid rua=: receivers apply no DMARC policy at all (RFC 7489 6.6.3).`);
      policy = '';
    }
  } else {
    // A parent's record applies to this subdomain through sp= (falling back to p=).
    policy = (inherited ? (sp ?? p) : p) as string;
  }
  // An invalid record already says it acts as p=none; a second finding would repeat it.
  if (usable && policy === 'none') {
    add('dmarc_policy_none', 'warning', `DMARC policy is p=none: receivers only report, they do not quarantine or reject spoofed mail.`);
  }
  if (!inherited && pValid && p !== 'none' && sp === 'none') {
    add('dmarc_subdomain_policy_none', 'info', `sp=none leaves subdomains of ${domain} unprotected.`);
  }
  const pctText = tags.get('pct');
  if (pctText !== undefined) {
    const pct = /^\d{1,3}$/.test(pctText) ? Number(pctText) : NaN;
    if (!(pct >= 0 && pct <= 100))
      add('dmarc_invalid_pct', 'warning', `pct=${pctText} must be a whole number from 0 to 100; receivers ignore it and apply the policy to all failing mail.`);
    else if (pct < 100 && policy !== 'none' && policy !== '')
      add('dmarc_partial_pct', 'warning', `pct=${pct}: the policy applies to only ${pct}% of failing mail.`);
  }
  for (const tag of ['adkim', 'aspf']) {
    const value = tags.get(tag)?.toLowerCase();
    if (value !== undefined && value !== 'r' && value !== 's')
      add('dmarc_syntax', 'warning', `${tag}=${value} must be r (relaxed) or s (strict); receivers ignore it and use relaxed alignment.`);
  }
  if (rua === undefined || rua === '') {
    add('dmarc_no_reports', 'info', 'No rua= address: nobody receives the aggregate reports that show who sends as this domain.');
  } else if (!rua.split(',').every((uri) => /^mailto:[^@\s]+@[^@\s]+/i.test(uri.trim()))) {
    add('dmarc_invalid_rua', 'warning', `rua=${rua} should be a comma-separated list of mailto: addresses.`);
  }
  if (inherited) add('dmarc_inherited', 'info', `No record at _dmarc.${domain}; the policy of ${found.name} applies.`);

  const status = statusFromIssues(issues);
  const summary: DmarcSummary = { valid: usable, policy, record: found.record, foundAt: at };
  return {
    summary,
    check: { status, message: checkMessage(issues, `DMARC policy is p=${policy}${inherited ? ` (inherited from ${found.name})` : ''}.`) },
    issues,
  };
}
