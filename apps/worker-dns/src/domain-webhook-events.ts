import type { DomainAuditEntity, LockedMonitoredDomain, MonitoredDomainChange, NewWebhookEvent } from '@mailproof/persistence';

/**
 * The webhook events one audit causes (docs/webhooks.md): `domain.drift` when it found drift, and
 * `domain.status_changed` when the status it earns differs from the domain's status before it (the
 * first conclusive audit moves a domain out of `pending`, which counts). Keyed by the audit, so a
 * redelivered audit job records neither twice.
 */
export function domainWebhookEvents(
  domain: LockedMonitoredDomain,
  audit: Pick<DomainAuditEntity, 'id' | 'checkedAt'>,
  change: MonitoredDomainChange,
): NewWebhookEvent[] {
  const events: NewWebhookEvent[] = [];
  const base = { domainId: domain.id, domain: domain.domain, auditId: audit.id };
  const score = change.domain.score ?? null;
  const status = change.domain.status ?? domain.status;
  if (change.driftEvents.length > 0) {
    events.push({
      accountId: domain.accountId,
      type: 'domain.drift',
      sourceKey: `domain.drift/${audit.id}`,
      occurredAt: audit.checkedAt,
      data: {
        ...base,
        detectedAt: audit.checkedAt.toISOString(),
        score,
        status,
        changes: change.driftEvents.map(({ kind, check, previous, current, message }) => ({ kind, check, previous, current, message })),
      },
    });
  }
  if (change.domain.status !== undefined && change.domain.status !== domain.status) {
    events.push({
      accountId: domain.accountId,
      type: 'domain.status_changed',
      sourceKey: `domain.status_changed/${audit.id}`,
      occurredAt: audit.checkedAt,
      data: { ...base, previousStatus: domain.status, status: change.domain.status, score, checkedAt: audit.checkedAt.toISOString() },
    });
  }
  return events;
}
