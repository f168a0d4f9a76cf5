import { isValidDkimSelector, normalizeDomain } from '@mailproof/engine/dns';
import { jobId } from './job-id';
import { type JobRequest, type PayloadCheck } from './job-request';

/**
 * `dns-audit.run`: audit one domain's SPF, DKIM, DMARC, MX and BIMI. The worker stores the audit
 * in `domain_audits` (keyed by the job id, so a redelivery overwrites nothing) and, for a
 * monitored domain, records drift against the previous audit and updates the domain.
 */
export const DNS_AUDIT_JOB = {
  name: 'dns-audit.run',
  queues: ['dns-audit'],
  schemaVersion: 1,
} as const;

export type DnsAuditTrigger = 'on-demand' | 'domain-added' | 'schedule';

export interface DnsAuditJobPayload {
  schemaVersion: 1;
  /** Already normalized (lowercase ASCII, no trailing dot). */
  domain: string;
  dkimSelectors: string[];
  trigger: DnsAuditTrigger;
  /** The account that asked (on-demand) or owns the monitored domain. */
  accountId?: string;
  monitoredDomainId?: string;
  /**
   * The scheduling window this audit belongs to (`<intervalMs>-<index>`). A monitored domain has
   * at most one audit per window; a second job for the same window does nothing.
   */
  window?: string;
}

export interface DnsAuditJobResult {
  /** Row id in domain_audits; null when the window already had an audit and this job did nothing. */
  auditId: string | null;
  domain: string;
  score: number | null;
  driftEvents: number;
  /**
   * The TXT records found at `<selector>._domainkey.<domain>` for each selector the payload named, as this
   * audit read them: [] when the name has none, null when its lookup failed. The preview worker verifies a
   * message's DKIM-Signature against them (docs/messages.md), so the check asks DNS once, through this path.
   * Absent when the job did no DNS work (a redelivery, a window audited already).
   */
  dkimKeyRecords?: Record<string, string[] | null>;
}

const TRIGGERS: readonly DnsAuditTrigger[] = ['on-demand', 'domain-added', 'schedule'];
/** More selectors than any sender uses; a payload with more is not ours. */
export const MAX_DKIM_SELECTORS = 20;
/** Scheduled audits queue behind on-demand ones (BullMQ runs unprioritized jobs first). */
export const SCHEDULED_AUDIT_PRIORITY = 10;

export const checkDnsAuditPayload: PayloadCheck = (data) => {
  const normalized = normalizeDomain(String(data.domain ?? ''));
  if (!normalized.ok || normalized.domain !== data.domain) return `domain is not normalized (${String(data.domain)})`;
  const selectors = data.dkimSelectors;
  if (!Array.isArray(selectors) || selectors.length > MAX_DKIM_SELECTORS || !selectors.every((s) => typeof s === 'string' && isValidDkimSelector(s))) {
    return 'invalid dkimSelectors';
  }
  if (!TRIGGERS.includes(data.trigger as DnsAuditTrigger)) return `unknown trigger ${String(data.trigger)}`;
  return undefined;
};

/**
 * An audit of one domain. On demand: a fresh id per request (every request audits). For a monitored
 * domain: the domain and its scheduling window make the id, so a window holds one audit however many
 * producers (the API when the domain is added, each scheduler replica's sweep) enqueue it.
 */
export function dnsAuditJob(
  audit:
    | { trigger: 'on-demand'; domain: string; dkimSelectors: string[]; accountId: string; requestId: string }
    | { trigger: 'domain-added' | 'schedule'; domain: string; dkimSelectors: string[]; accountId: string; monitoredDomainId: string; window: string },
): JobRequest<'dns-audit.run', DnsAuditJobPayload> {
  const base = { schemaVersion: 1 as const, domain: audit.domain, dkimSelectors: audit.dkimSelectors, trigger: audit.trigger, accountId: audit.accountId };
  if (audit.trigger === 'on-demand') {
    return { queue: 'dns-audit', name: DNS_AUDIT_JOB.name, data: base, jobId: jobId(DNS_AUDIT_JOB.name, audit.requestId) };
  }
  return {
    queue: 'dns-audit',
    name: DNS_AUDIT_JOB.name,
    data: { ...base, monitoredDomainId: audit.monitoredDomainId, window: audit.window },
    jobId: jobId(DNS_AUDIT_JOB.name, audit.monitoredDomainId, audit.window),
    ...(audit.trigger === 'schedule' ? { priority: SCHEDULED_AUDIT_PRIORITY } : {}),
  };
}
