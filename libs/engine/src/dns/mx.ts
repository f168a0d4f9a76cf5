import type { CheckOutcome, DnsIssue, MxSummary } from './deliverability-result';
import { checkMessage, statusFromIssues } from './deliverability-result';
import { describeFailure, isVoid, type DnsResolver, type MxRecord } from './dns-resolver.port';

/** Host lookups are capped so a domain with hundreds of MX records costs a bounded audit. */
const MAX_HOSTS_RESOLVED = 10;

function hostName(exchange: string): string {
  return exchange.trim().toLowerCase().replace(/\.$/, '');
}

function byPreference(a: MxRecord, b: MxRecord): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  const x = hostName(a.exchange);
  const y = hostName(b.exchange);
  return x < y ? -1 : x > y ? 1 : 0;
}

export async function evaluateMx(domain: string, resolver: DnsResolver): Promise<CheckOutcome<MxSummary>> {
  const lookup = await resolver.mx(domain);
  if (lookup.status === 'error') {
    return { summary: { valid: false, hosts: [] }, check: { status: 'skip', message: `MX not checked: ${describeFailure(lookup)}.` }, issues: [] };
  }
  const issues: DnsIssue[] = [];
  const add = (rule: string, severity: DnsIssue['severity'], message: string) => issues.push({ check: 'mx', rule, severity, message });
  const records = lookup.status === 'ok' ? [...lookup.records].sort(byPreference) : [];
  const hosts = [...new Set(records.map((record) => hostName(record.exchange)))];
  if (lookup.status === 'nxdomain') {
    add('mx_domain_missing', 'error', `${domain} does not exist in DNS (NXDOMAIN).`);
  } else if (records.length === 0) {
    // RFC 5321 5.1: without MX records, mail goes to the domain's own address (the implicit MX).
    const [v4, v6] = await Promise.all([resolver.a(domain), resolver.aaaa(domain)]);
    const address = [v4, v6].find((answer) => answer.status === 'ok' && answer.records.length > 0);
    if (address) {
      add(
        'mx_implicit',
        'warning',
        `${domain} has no MX records; mail to it goes to its address record (the implicit MX of RFC 5321 5.1). Publish an MX record naming the host that receives mail.`,
      );
    } else if (v4.status === 'error' && v6.status === 'error') {
      add('mx_missing', 'error', `${domain} has no MX records, and its address record could not be checked (${describeFailure(v4)}).`);
    } else {
      add(
        'mx_missing',
        'error',
        `${domain} has no MX records and no address record: replies and bounces have nowhere to go, and receivers distrust senders that cannot receive mail.`,
      );
    }
  } else if (hosts.includes('')) {
    // RFC 7505: a single MX of "." at preference 0 says the domain accepts no mail at all.
    add(
      'mx_null',
      'error',
      hosts.length === 1
        ? `${domain} publishes a null MX (RFC 7505): it declares that it accepts no mail, so receivers may reject mail sent from it.`
        : `${domain} mixes a null MX with real MX hosts, which RFC 7505 forbids.`,
    );
  } else {
    const checked = hosts.slice(0, MAX_HOSTS_RESOLVED);
    const resolved = await Promise.all(
      checked.map(async (host) => {
        if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':')) return { host, state: 'ip' as const };
        const [v4, v6] = await Promise.all([resolver.a(host), resolver.aaaa(host)]);
        if ((v4.status === 'ok' && v4.records.length > 0) || (v6.status === 'ok' && v6.records.length > 0)) return { host, state: 'ok' as const };
        if (isVoid(v4) && isVoid(v6)) return { host, state: 'void' as const };
        return { host, state: 'error' as const };
      }),
    );
    for (const { host, state } of resolved) {
      if (state === 'ip') add('mx_ip_literal', 'warning', `MX host ${host} is an IP address; MX records must name a host (RFC 5321).`);
    }
    const dead = resolved.filter((r) => r.state === 'void').map((r) => r.host);
    const usable = resolved.filter((r) => r.state === 'ok' || r.state === 'error').length;
    if (dead.length > 0 && usable === 0 && !resolved.some((r) => r.state === 'ip')) {
      add('mx_unresolvable', 'error', `None of the MX hosts of ${domain} resolve to an address (${dead.join(', ')}).`);
    } else if (dead.length > 0) {
      add(
        'mx_host_unresolvable',
        'warning',
        `MX host${dead.length > 1 ? 's' : ''} ${dead.join(', ')} of ${domain} do${dead.length > 1 ? '' : 'es'} not resolve to an address.`,
      );
    }
  }
  const status = statusFromIssues(issues);
  return {
    summary: { valid: status !== 'fail', hosts: hosts.filter((h) => h !== '') },
    check: { status, message: checkMessage(issues, `${hosts.length} MX host${hosts.length === 1 ? '' : 's'}: ${hosts.join(', ')}.`) },
    issues,
  };
}
