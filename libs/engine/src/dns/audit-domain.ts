import { evaluateBimi } from './bimi';
import type { DeliverabilityResult, DnsCheck, DnsCheckName, DnsIssue } from './deliverability-result';
import { DNS_CHECK_NAMES } from './deliverability-result';
import { evaluateDkim } from './dkim';
import { evaluateDmarc } from './dmarc';
import type { DnsResolver } from './dns-resolver.port';
import { evaluateMx } from './mx';
import { normalizeDomain } from './normalize-domain';
import { evaluateSpf } from './spf';

/** The weight of each record in the 0-100 score: pass earns all of it, warn half, fail none; a skipped check leaves the total. */
export const DNS_CHECK_WEIGHTS: Record<DnsCheckName, number> = { mx: 25, spf: 25, dkim: 20, dmarc: 20, bimi: 10 };

const STATUS_CREDIT = { pass: 1, warn: 0.5, fail: 0 } as const;

/**
 * pass = full weight, warn = half, fail = none; a skipped check leaves the denominator. null when
 * every check was skipped: no number is honest about a domain nobody could look up.
 */
export function scoreChecks(checks: Record<DnsCheckName, DnsCheck>): number | null {
  let earned = 0;
  let possible = 0;
  for (const name of DNS_CHECK_NAMES) {
    const { status } = checks[name];
    if (status === 'skip') continue;
    possible += DNS_CHECK_WEIGHTS[name];
    earned += DNS_CHECK_WEIGHTS[name] * STATUS_CREDIT[status];
  }
  return possible === 0 ? null : Math.round((100 * earned) / possible);
}

/** True when no record could be looked up: the audit says nothing about the domain. */
export function isInconclusive(result: Pick<DeliverabilityResult, 'checks'>): boolean {
  return DNS_CHECK_NAMES.every((name) => result.checks[name].status === 'skip');
}

export type DomainHealth = 'healthy' | 'degraded' | 'failing';

/** A monitored domain's status from its score: healthy from 80, degraded from 50, failing below. */
export function domainHealth(score: number): DomainHealth {
  if (score >= 80) return 'healthy';
  if (score >= 50) return 'degraded';
  return 'failing';
}

export interface AuditOptions {
  /** Selectors to probe before the common list. */
  dkimSelectors?: readonly string[];
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

/**
 * The full audit of one domain: MX, SPF, DKIM, DMARC, then BIMI (which depends on the DMARC
 * policy). `domain` must already be normalized (see normalizeDomain); anything else is a bug
 * in the caller and throws.
 */
export async function auditDomain(domain: string, resolver: DnsResolver, options: AuditOptions = {}): Promise<DeliverabilityResult> {
  const normalized = normalizeDomain(domain);
  if (!normalized.ok || normalized.domain !== domain) throw new RangeError(`auditDomain needs a normalized domain (got "${domain}")`);
  const [mx, spf, dkim, dmarc] = await Promise.all([
    evaluateMx(domain, resolver),
    evaluateSpf(domain, resolver),
    evaluateDkim(domain, resolver, options.dkimSelectors ?? []),
    evaluateDmarc(domain, resolver),
  ]);
  const bimi = await evaluateBimi(domain, resolver, dmarc.summary);
  const checks = { mx: mx.check, spf: spf.check, dkim: dkim.check, dmarc: dmarc.check, bimi: bimi.check };
  // Optional records "missing" only warn, but a domain that does not exist at all has none of them.
  if (mx.issues.some((issue) => issue.rule === 'mx_domain_missing')) {
    for (const name of ['dkim', 'bimi'] as const) {
      if (checks[name].status === 'warn') checks[name] = { status: 'fail', message: `${domain} does not exist in DNS (NXDOMAIN).` };
    }
  }
  const checkOrder = (issue: DnsIssue) => DNS_CHECK_NAMES.indexOf(issue.check);
  const issues = [...mx.issues, ...spf.issues, ...dkim.issues, ...dmarc.issues, ...bimi.issues].sort(
    (a, b) => checkOrder(a) - checkOrder(b) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity],
  );
  return {
    domain,
    score: scoreChecks(checks),
    spf: spf.summary,
    dkim: dkim.summary,
    dmarc: dmarc.summary,
    mx: mx.summary,
    bimi: bimi.summary,
    checks,
    issues,
  };
}
