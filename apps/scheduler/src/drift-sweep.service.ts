import { Injectable, Logger } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { DNS_AUDIT_JOB, auditWindow, type DnsAuditJobPayload, type DomainSweepJobResult } from '@mailproof/contracts';
import { MonitoredDomainRepository } from '@mailproof/persistence';
import { JobProducer, jobId } from '@mailproof/queue';

const PAGE_SIZE = 1_000;
/** Scheduled audits queue behind on-demand ones (BullMQ runs unprioritised jobs first). */
export const SCHEDULED_AUDIT_PRIORITY = 10;

/**
 * Fans out one `dns-audit.run` per monitored domain for one window. The job id is the domain id
 * plus the window, so a second sweep of the same window (another scheduler replica, a restart)
 * adds nothing; the worker's per-window check in PostgreSQL covers jobs already removed from Redis.
 */
@Injectable()
export class DriftSweepService {
  private readonly logger = new Logger('DriftSweep');

  constructor(
    private readonly config: MailproofConfig,
    private readonly domains: MonitoredDomainRepository,
    private readonly jobs: JobProducer,
  ) {}

  async sweep(scheduledAt: number): Promise<DomainSweepJobResult> {
    const window = auditWindow(scheduledAt, this.config.deliverability.auditIntervalMs);
    const queue = this.jobs.queue('dns-audit');
    let after: string | null = null;
    let domains = 0;
    let enqueued = 0;
    for (;;) {
      const page = await this.domains.sweepPage(after, PAGE_SIZE);
      if (page.length === 0) break;
      const added = await queue.addBulk(
        page.map((domain) => {
          const payload: DnsAuditJobPayload = {
            schemaVersion: 1,
            domain: domain.domain,
            dkimSelectors: domain.dkimSelectors,
            trigger: 'schedule',
            accountId: domain.accountId,
            monitoredDomainId: domain.id,
            window,
          };
          return { name: DNS_AUDIT_JOB.name, data: payload, opts: { jobId: jobId(DNS_AUDIT_JOB.name, domain.id, window), priority: SCHEDULED_AUDIT_PRIORITY } };
        }),
      );
      domains += page.length;
      enqueued += added.length;
      after = page[page.length - 1].id;
      if (page.length < PAGE_SIZE) break;
    }
    this.logger.log(`window ${window}: ${domains} monitored domains swept`);
    return { window, domains, enqueued };
  }
}
