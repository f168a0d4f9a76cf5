import { Injectable } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { auditWindow, dnsAuditJob } from '@mailproof/contracts';
import { DomainAuditRepository, MonitoredDomainRepository, type MonitoredDomainEntity } from '@mailproof/persistence';
import { JobProducer } from '@mailproof/queue';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { orQueueUnavailable } from '../common/queue-unavailable';
import { ProblemException } from '../problems/problem.exception';
import {
  DomainAuditResponse,
  DriftEventResponse,
  MonitoredDomainResponse,
  type DomainHistoryResponse,
  type MonitoredDomainListResponse,
} from './dto/monitored-domain.response';

const DEFAULT_HISTORY_LIMIT = 50;

@Injectable()
export class DomainsService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly domains: MonitoredDomainRepository,
    private readonly audits: DomainAuditRepository,
    private readonly jobs: JobProducer,
  ) {}

  private limitFor(account: AuthenticatedAccount): number {
    return this.config.deliverability.domainLimits[account.plan];
  }

  async add(account: AuthenticatedAccount, domain: string, dkimSelectors: string[]): Promise<MonitoredDomainResponse> {
    const limit = this.limitFor(account);
    const outcome = await this.domains.add(account.accountId, domain, dkimSelectors, limit);
    if (outcome.status === 'duplicate') {
      throw new ProblemException('conflict', `${domain} is already monitored by this account.`, { id: outcome.domain.id });
    }
    if (outcome.status === 'limit_reached') {
      const plan = account.plan === 'free' ? 'Free' : 'Pro';
      throw new ProblemException(
        'forbidden',
        `${plan} accounts may monitor up to ${limit} domains; remove one first${account.plan === 'free' ? ' or move to Pro' : ''}.`,
        { limit },
      );
    }
    // Without its first audit the domain is not added: 503 and the row is removed, so the client's
    // retry is a fresh add rather than a 409. A job that still reaches the queue finds the domain gone.
    await orQueueUnavailable(
      this.auditNow(outcome.domain),
      'Domains cannot be added right now (Redis is unavailable, so the first audit cannot be queued); nothing was stored. Retry shortly.',
      () => this.domains.removeForAccount(outcome.domain.id, account.accountId),
    );
    return MonitoredDomainResponse.from(outcome.domain);
  }

  /**
   * The first audit runs at once, under the current window's job id: the scheduler's sweep of this
   * window then finds the job (or the stored audit) and does not audit the domain a second time.
   */
  private async auditNow(domain: MonitoredDomainEntity): Promise<void> {
    const window = auditWindow(Date.now(), this.config.deliverability.auditIntervalMs);
    await this.jobs.enqueue(
      dnsAuditJob({
        trigger: 'domain-added',
        domain: domain.domain,
        dkimSelectors: domain.dkimSelectors,
        accountId: domain.accountId,
        monitoredDomainId: domain.id,
        window,
      }),
    );
  }

  async list(account: AuthenticatedAccount): Promise<MonitoredDomainListResponse> {
    const domains = await this.domains.listForAccount(account.accountId);
    return { domains: domains.map(MonitoredDomainResponse.from), limit: this.limitFor(account) };
  }

  async history(account: AuthenticatedAccount, id: string, limit = DEFAULT_HISTORY_LIMIT): Promise<DomainHistoryResponse> {
    const domain = await this.domains.findForAccount(id, account.accountId);
    if (!domain) throw notFound();
    const [audits, driftEvents] = await Promise.all([this.audits.history(domain.id, limit), this.audits.driftEvents(domain.id, limit)]);
    return {
      domain: MonitoredDomainResponse.from(domain),
      audits: audits.map(DomainAuditResponse.from),
      driftEvents: driftEvents.map(DriftEventResponse.from),
    };
  }

  /** A domain with its lowest score per day over `days` and its latest drift events (the dashboard's domain page). */
  async timeline(account: AuthenticatedAccount, id: string, days: number, driftLimit = DEFAULT_HISTORY_LIMIT) {
    const domain = await this.domains.findForAccount(id, account.accountId);
    if (!domain) throw notFound();
    const since = new Date(Date.now() - days * 86_400_000);
    const [scores, driftEvents] = await Promise.all([this.audits.dailyScores(domain.id, since), this.audits.driftEvents(domain.id, driftLimit)]);
    return { domain: MonitoredDomainResponse.from(domain), dailyScores: scores, driftEvents: driftEvents.map(DriftEventResponse.from) };
  }

  async remove(account: AuthenticatedAccount, id: string): Promise<void> {
    if (!(await this.domains.removeForAccount(id, account.accountId))) throw notFound();
  }
}

function notFound(): ProblemException {
  return new ProblemException('not_found', 'No monitored domain with this id in your account.');
}
