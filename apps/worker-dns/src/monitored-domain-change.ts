import { diffAudits, domainHealth, type DeliverabilityResult } from '@mailproof/engine/dns';
import type { DomainAuditEntity, MonitoredDomainChange } from '@mailproof/persistence';

/**
 * What one audit changes on its monitored domain. An inconclusive audit (every lookup skipped)
 * only moves lastCheckedAt: a resolver outage is not news about the domain, so it neither moves
 * the score and status nor counts as drift. A conclusive audit sets the score, the status its
 * score earns and the last result, and is compared with the latest conclusive audit before it;
 * the first one has nothing to compare with. lastDrift changes only when drift was found, so it
 * keeps pointing at the latest audit that found any.
 */
export function monitoredDomainChange(
  audit: Pick<DomainAuditEntity, 'id' | 'checkedAt' | 'inconclusive'>,
  result: DeliverabilityResult,
  previous: DeliverabilityResult | null,
): MonitoredDomainChange {
  if (audit.inconclusive) return { driftEvents: [], domain: { lastCheckedAt: audit.checkedAt } };
  const checkedAt = audit.checkedAt.toISOString();
  const events = previous ? diffAudits(previous, result) : [];
  return {
    driftEvents: events,
    domain: {
      lastCheckedAt: audit.checkedAt,
      score: result.score,
      status: domainHealth(result.score),
      lastResult: { ...result, checkedAt },
      ...(events.length > 0 ? { lastDrift: { detectedAt: checkedAt, auditId: audit.id, events } } : {}),
    },
  };
}
