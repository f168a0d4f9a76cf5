import { Injectable, Logger } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { auditWindow, dnsAuditJob, type DriftSweepJobResult } from '@mailproof/contracts';
import { MonitoredDomainRepository } from '@mailproof/persistence';
import { JobProducer } from '@mailproof/queue';

const PAGE_SIZE = 1_000;

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

  async sweep(scheduledAt: number): Promise<DriftSweepJobResult> {
    const window = auditWindow(scheduledAt, this.config.deliverability.auditIntervalMs);
    let after: string | null = null;
    let domains = 0;
    let enqueued = 0;
    for (;;) {
      const page = await this.domains.sweepPage(after, PAGE_SIZE);
      if (page.length === 0) break;
      const added = await this.jobs.enqueueBulk(
        page.map((domain) =>
          dnsAuditJob({
            trigger: 'schedule',
            domain: domain.domain,
            dkimSelectors: domain.dkimSelectors,
            accountId: domain.accountId,
            monitoredDomainId: domain.id,
            window,
          }),
        ),
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
