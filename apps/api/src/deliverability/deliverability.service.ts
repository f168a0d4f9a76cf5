import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MailproofConfig } from '@mailproof/config';
import { dnsAuditJob, type DnsAuditJobResult } from '@mailproof/contracts';
import { DomainAuditRepository } from '@mailproof/persistence';
import { JobProducer, QueueEventsRegistry, awaitJob } from '@mailproof/queue';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { orQueueUnavailable } from '../common/queue-unavailable';
import { ProblemException } from '../problems/problem.exception';
import type { DeliverabilityResponse } from './dto/deliverability.response';

const QUEUE_UNAVAILABLE = 'DNS audits cannot be queued right now (Redis is unavailable). Retry shortly.';

/**
 * POST /api/deliverability: enqueue a dns-audit job, wait within the budget, answer from PostgreSQL.
 * A Redis that does not take the job within REDIS_COMMAND_TIMEOUT_MS is a 503 at once.
 */
@Injectable()
export class DeliverabilityService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
    private readonly audits: DomainAuditRepository,
  ) {}

  async audit(account: AuthenticatedAccount, domain: string, dkimSelectors: string[]): Promise<DeliverabilityResponse> {
    const started = Date.now();
    const budgetMs = this.config.deliverability.budgetMs;
    const events = await orQueueUnavailable(this.queueEvents.getWithin('dns-audit', this.config.redis.commandTimeoutMs), QUEUE_UNAVAILABLE);
    const job = await orQueueUnavailable(
      this.jobs.enqueue(dnsAuditJob({ trigger: 'on-demand', domain, dkimSelectors, accountId: account.accountId, requestId: randomUUID() })),
      QUEUE_UNAVAILABLE,
    );
    const outcome = await awaitJob<DnsAuditJobResult>(job, this.jobs.queue('dns-audit'), events, budgetMs - (Date.now() - started));
    // Even after a timeout the worker may have stored the audit by now: PostgreSQL decides.
    const row = outcome.status === 'failed' ? null : await this.audits.findByJobId(String(job.id));
    if (!row) {
      const detail =
        outcome.status === 'failed' ? 'The DNS audit failed; retry shortly.' : `The DNS audit did not finish within ${budgetMs} ms; retry shortly.`;
      throw new ProblemException('service_unavailable', detail, { jobId: job.id, headers: { 'Retry-After': '5' } });
    }
    return { ...row.result, checkedAt: row.checkedAt.toISOString(), inconclusive: row.inconclusive };
  }
}
