import { DNS_CHECK_NAMES, diffAudits, domainHealth, type DeliverabilityResult } from '@mailproof/engine/dns';
import type { DomainAuditEntity, MonitoredDomainChange } from '@mailproof/persistence';

/**
 * What one audit changes on its monitored domain. An inconclusive audit (every lookup skipped, no
 * score) moves lastCheckedAt and says why nothing else moved (statusReason): a resolver outage is
 * not news about the domain, so it neither moves the score and status (a domain never audited
 * stays pending) nor counts as drift. A conclusive audit sets the score, the status its score
 * earns and the last result, clears the reason, and is compared with the latest conclusive audit
 * before it; the first one has nothing to compare with. lastDrift changes only when drift was
 * found, so it keeps pointing at the latest audit that found any.
 */
export function monitoredDomainChange(
  audit: Pick<DomainAuditEntity, 'id' | 'checkedAt' | 'inconclusive'>,
  result: DeliverabilityResult,
  previous: DeliverabilityResult | null,
): MonitoredDomainChange {
  const checkedAt = audit.checkedAt.toISOString();
  if (audit.inconclusive || result.score === null) {
    return { driftEvents: [], domain: { lastCheckedAt: audit.checkedAt, statusReason: inconclusiveReason(result, checkedAt, previous !== null) } };
  }
  const events = previous ? diffAudits(previous, result) : [];
  return {
    driftEvents: events,
    domain: {
      lastCheckedAt: audit.checkedAt,
      score: result.score,
      status: domainHealth(result.score),
      statusReason: null,
      lastResult: { ...result, checkedAt },
      ...(events.length > 0 ? { lastDrift: { detectedAt: checkedAt, auditId: audit.id, events } } : {}),
    },
  };
}

function inconclusiveReason(result: DeliverabilityResult, checkedAt: string, hasConclusiveAudit: boolean): string {
  const why = DNS_CHECK_NAMES.map((name) => result.checks[name].message).find((message) => message !== '') ?? 'no DNS lookup answered';
  const kept = hasConclusiveAudit ? 'score and status are those of the last conclusive audit' : 'the domain stays pending until an audit gets answers';
  return `The audit at ${checkedAt} was inconclusive: no DNS lookup answered (${why.replace(/\.$/, '')}); ${kept}.`;
}
