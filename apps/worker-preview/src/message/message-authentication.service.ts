import { Injectable, Logger } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { dnsAuditJob, type DnsAuditJobResult } from '@mailproof/contracts';
import { authenticationPlan, readMessageFacts, type DeliverabilityResult, type MessageAuthenticationInput, type ParsedMessage } from '@mailproof/engine';
import { DomainAuditRepository } from '@mailproof/persistence';
import { JobProducer, QueueEventsRegistry, awaitJob } from '@mailproof/queue';
import { verifyDkimSignatures } from './dkim-verifier.adapter';

/** A message to authenticate: the parsed message, its raw text (what DKIM signed) and whose preview it is. */
export interface MessageToAuthenticate {
  previewId: string;
  accountId: string;
  parsed: ParsedMessage;
  raw: string;
}

interface DomainLookup {
  audit: DeliverabilityResult | null;
  keys: Record<string, string[] | null>;
}

/**
 * The DNS side of a message report (docs/messages.md, "Authentication"): each domain of the message's
 * authentication plan (From, Return-Path, each DKIM d= with its selector) is audited through the existing
 * audit path, a `dns-audit.run` job that worker-dns runs over DNS over HTTPS with its Redis cache, stored in
 * domain_audits as POST /api/deliverability's audits are; then each DKIM-Signature is verified against the
 * key records those audits read. All of it within a budget: a lookup that failed, a job that failed and a
 * wait past the budget leave that domain without an audit, which the engine reports as inconclusive.
 */
@Injectable()
export class MessageAuthenticationService {
  private readonly logger = new Logger('MessageAuthentication');

  constructor(
    private readonly config: MailproofConfig,
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
    private readonly audits: DomainAuditRepository,
  ) {}

  /** Half the preview's budget at most: the analysis and the store must still fit in what the API waits. */
  get budgetMs(): number {
    return Math.min(this.config.deliverability.budgetMs, Math.floor(this.config.previews.budgetMs / 2));
  }

  /** Never rejects: whatever fails leaves its domain unaudited or its signature unverified (inconclusive). */
  async lookups(message: MessageToAuthenticate): Promise<MessageAuthenticationInput> {
    const facts = readMessageFacts(message.parsed);
    const plan = authenticationPlan(facts);
    const deadline = Date.now() + this.budgetMs;
    const looked = await Promise.all(plan.domains.map((domain) => this.lookup(message, domain, deadline)));
    const audits: MessageAuthenticationInput['audits'] = {};
    const keys = new Map<string, string[] | null>();
    plan.domains.forEach(({ domain }, index) => {
      audits[domain] = looked[index].audit;
      for (const [selector, records] of Object.entries(looked[index].keys)) keys.set(`${selector}._domainkey.${domain}`, records);
    });
    if (facts.dkimSignatures.length === 0) return { audits, dkim: [] };
    try {
      return { audits, dkim: await verifyDkimSignatures(message.raw, keys) };
    } catch (error) {
      // A verifier that cannot read the message decides nothing: each signature is unknown, never failed.
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`preview ${message.previewId}: DKIM verification failed: ${reason}`);
      return {
        audits,
        dkim: facts.dkimSignatures.map(({ domain, selector }) => ({ domain, selector, result: 'temperror', message: `not verified: ${reason}` })),
      };
    }
  }

  private async lookup(message: MessageToAuthenticate, plan: { domain: string; dkimSelectors: string[] }, deadline: number): Promise<DomainLookup> {
    try {
      const events = await this.queueEvents.getWithin('dns-audit', this.config.redis.commandTimeoutMs);
      const job = await this.jobs.enqueue(
        dnsAuditJob({
          trigger: 'on-demand',
          domain: plan.domain,
          dkimSelectors: plan.dkimSelectors,
          accountId: message.accountId,
          requestId: `message-${message.previewId}-${plan.domain}`,
        }),
      );
      const outcome = await awaitJob<DnsAuditJobResult | string>(job, this.jobs.queue('dns-audit'), events, deadline - Date.now());
      if (outcome.status !== 'completed') return { audit: null, keys: {} };
      // QueueEvents hand the return value over as its JSON text; a finished job read afresh, as the object.
      const result = typeof outcome.result === 'string' ? (JSON.parse(outcome.result) as DnsAuditJobResult) : outcome.result;
      const row = await this.audits.findByJobId(String(job.id));
      return { audit: row ? row.result : null, keys: result?.dkimKeyRecords ?? {} };
    } catch (error) {
      // Redis or PostgreSQL away: the domain is unaudited (inconclusive), the preview itself goes on.
      this.logger.warn(`preview ${message.previewId}: DNS audit of ${plan.domain} failed: ${error instanceof Error ? error.message : String(error)}`);
      return { audit: null, keys: {} };
    }
  }
}
