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
  /** Already normalised (lowercase ASCII, no trailing dot). */
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
}
