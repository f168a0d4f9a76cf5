import { Inject, Injectable } from '@nestjs/common';
import type { DnsAuditJobPayload, DnsAuditJobResult } from '@mailproof/contracts';
import { auditDomain, isInconclusive, type DnsResolver } from '@mailproof/engine/dns';
import { DomainAuditRepository } from '@mailproof/persistence';
import { WebhookQueue } from '@mailproof/webhooks';
import { DNS_RESOLVER } from './dns-resolver.token';
import { domainWebhookEvents } from './domain-webhook-events';
import { monitoredDomainChange } from './monitored-domain-change';

/**
 * Runs one audit and stores it with what it changes on a monitored domain (monitoredDomainChange:
 * drift, score, status) and the webhook events that causes, queued once the audit is committed.
 * Idempotent: a redelivered job finds the row its job id wrote; a second job for a window that already
 * has an audit does no DNS work at all.
 */
@Injectable()
export class DnsAuditService {
  constructor(
    @Inject(DNS_RESOLVER) private readonly resolver: DnsResolver,
    private readonly audits: DomainAuditRepository,
    private readonly webhooks: WebhookQueue,
  ) {}

  async run(jobId: string, payload: DnsAuditJobPayload): Promise<DnsAuditJobResult> {
    const done = await this.audits.findByJobId(jobId);
    if (done) return { auditId: done.id, domain: done.domain, score: done.score, driftEvents: 0 };
    if (payload.monitoredDomainId && payload.window && (await this.audits.hasWindowAudit(payload.monitoredDomainId, payload.window))) {
      return { auditId: null, domain: payload.domain, score: null, driftEvents: 0 };
    }
    const keys = recordingKeyLookups(this.resolver, payload.domain, payload.dkimSelectors);
    const result = await auditDomain(payload.domain, keys.resolver, { dkimSelectors: payload.dkimSelectors });
    const outcome = await this.audits.record(
      {
        jobId,
        monitoredDomainId: payload.monitoredDomainId ?? null,
        accountId: payload.accountId ?? null,
        domain: payload.domain,
        trigger: payload.trigger,
        windowKey: payload.window ?? null,
        score: result.score,
        inconclusive: isInconclusive(result),
        result,
        checkedAt: new Date(),
      },
      (stored, previous, domain) => {
        const change = monitoredDomainChange(stored, result, previous ? previous.result : null);
        return { ...change, webhookEvents: domainWebhookEvents(domain, stored, change) };
      },
    );
    await this.webhooks.queueDeliveries(outcome.webhookDeliveries);
    return {
      auditId: outcome.audit?.id ?? null,
      domain: payload.domain,
      score: outcome.audit ? outcome.audit.score : null,
      driftEvents: outcome.driftEvents,
      ...(payload.dkimSelectors.length > 0 ? { dkimKeyRecords: keys.records } : {}),
    };
  }
}

/**
 * The resolver with the TXT answers at the named selectors' `_domainkey` names kept as the audit reads them,
 * for the job's result (`dkimKeyRecords`): a message's DKIM check then verifies against the same answers.
 */
function recordingKeyLookups(resolver: DnsResolver, domain: string, selectors: string[]): { resolver: DnsResolver; records: Record<string, string[] | null> } {
  const names = new Map(selectors.map((selector) => [`${selector}._domainkey.${domain}`.toLowerCase(), selector]));
  const records: Record<string, string[] | null> = {};
  const recording: DnsResolver = {
    txt: async (name) => {
      const answer = await resolver.txt(name);
      const selector = names.get(name.toLowerCase());
      if (selector !== undefined) records[selector] = answer.status === 'ok' ? answer.records : answer.status === 'error' ? null : [];
      return answer;
    },
    mx: (name) => resolver.mx(name),
    a: (name) => resolver.a(name),
    aaaa: (name) => resolver.aaaa(name),
  };
  return { resolver: recording, records };
}
