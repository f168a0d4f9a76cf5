import type { LockedMonitoredDomain, MonitoredDomainChange } from '@mailproof/persistence';
import { domainWebhookEvents } from './domain-webhook-events';

const domain: LockedMonitoredDomain = { id: 'dom-1', accountId: 'acc-1', domain: 'example.test', status: 'healthy' };
const audit = { id: 'audit-7', checkedAt: new Date('2026-11-25T10:00:00.000Z') };
const drift = { kind: 'dmarc_policy', check: 'dmarc', previous: 'reject', current: 'none', message: 'DMARC policy changed from reject to none' };

describe("domainWebhookEvents (what an audit tells the account's webhooks)", () => {
  it('sends domain.drift with every change, keyed by the audit', () => {
    const change: MonitoredDomainChange = { driftEvents: [drift], domain: { score: 90, status: 'healthy' } };
    expect(domainWebhookEvents(domain, audit, change)).toEqual([
      {
        accountId: 'acc-1',
        type: 'domain.drift',
        sourceKey: 'domain.drift/audit-7',
        occurredAt: audit.checkedAt,
        data: {
          domainId: 'dom-1',
          domain: 'example.test',
          auditId: 'audit-7',
          detectedAt: '2026-11-25T10:00:00.000Z',
          score: 90,
          status: 'healthy',
          changes: [drift],
        },
      },
    ]);
  });

  it('sends domain.status_changed when the status moves, with the status before it', () => {
    const change: MonitoredDomainChange = { driftEvents: [drift], domain: { score: 45, status: 'failing' } };
    const events = domainWebhookEvents(domain, audit, change);
    expect(events.map((event) => event.type)).toEqual(['domain.drift', 'domain.status_changed']);
    expect(events[1]).toMatchObject({ sourceKey: 'domain.status_changed/audit-7', data: { previousStatus: 'healthy', status: 'failing', score: 45 } });
  });

  it('counts the first conclusive audit moving a domain out of pending as a status change, without drift', () => {
    const events = domainWebhookEvents({ ...domain, status: 'pending' }, audit, { driftEvents: [], domain: { score: 100, status: 'healthy' } });
    expect(events.map((event) => (event.type === 'domain.status_changed' ? [event.type, event.data.previousStatus, event.data.status] : [event.type]))).toEqual(
      [['domain.status_changed', 'pending', 'healthy']],
    );
  });

  it('sends nothing for an unchanged domain or an inconclusive audit', () => {
    expect(domainWebhookEvents(domain, audit, { driftEvents: [], domain: { score: 100, status: 'healthy' } })).toEqual([]);
    expect(domainWebhookEvents(domain, audit, { driftEvents: [], domain: { lastCheckedAt: audit.checkedAt } })).toEqual([]);
  });
});
