import { Injectable, Logger } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { MAX_RETENTION_DAYS, QUEUE_NAMES } from '@mailproof/contracts';
import { AccountDataRepository, type AccountErasure, type AccountSettings, type ErasureRequester } from '@mailproof/persistence';
import { eraseAccountFromRedis, JobProducer, queueRedisClient } from '@mailproof/queue';
import { AccountRevocations } from '../auth/account-revocations.service';
import { RateLimiterService } from '../auth/rate-limiter.service';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { ProblemException } from '../problems/problem.exception';
import type { AccountResponse } from './dto/account.response';

function accountResponse(settings: AccountSettings): AccountResponse {
  return {
    id: settings.id,
    name: settings.name,
    plan: settings.plan,
    retentionDays: settings.retentionDays,
    maxRetentionDays: MAX_RETENTION_DAYS[settings.plan],
    createdAt: settings.createdAt.toISOString(),
  };
}

/** The account's own data: retention settings, export and erasure (GET/PATCH/DELETE /api/account, the dashboard's account page). */
@Injectable()
export class AccountService {
  private readonly logger = new Logger('AccountData');

  constructor(
    private readonly config: MailproofConfig,
    private readonly accountData: AccountDataRepository,
    private readonly jobs: JobProducer,
    private readonly revocations: AccountRevocations,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  async settings(account: AuthenticatedAccount): Promise<AccountResponse> {
    const settings = await this.accountData.findSettings(account.accountId);
    if (!settings) throw new ProblemException('not_found', 'No such account.');
    return accountResponse(settings);
  }

  async setRetention(account: AuthenticatedAccount, retentionDays: number): Promise<AccountResponse> {
    const max = MAX_RETENTION_DAYS[account.plan];
    if (retentionDays > max) {
      throw new ProblemException('plan_required', `${account.plan === 'free' ? 'Free' : 'Pro'} accounts keep email content at most ${max} days.`, {
        maxRetentionDays: max,
      });
    }
    const settings = await this.accountData.setRetentionDays(account.accountId, retentionDays);
    if (!settings) throw new ProblemException('not_found', 'No such account.');
    return accountResponse(settings);
  }

  exportChunks(account: AuthenticatedAccount): AsyncGenerator<string> {
    return this.accountData.exportChunks(account.accountId);
  }

  /**
   * Erases the account (one transaction), then what Redis holds of it: its keys stop working on every replica
   * at once (this one before the rows' commit is even announced), its dashboard sessions end, its rate-limit and
   * last-used markers and its jobs go (eraseAccountFromRedis, shared with `mailproof account delete`).
   */
  async erase(accountId: string, requestedBy: ErasureRequester): Promise<AccountErasure> {
    const erasure = await this.accountData.erase(accountId, requestedBy);
    if (!erasure) throw new ProblemException('not_found', 'No such account.');
    this.revocations.revokeAccount(accountId);
    try {
      const queueClient = await queueRedisClient(this.jobs.queue('preview'));
      const { jobsRemoved, problems } = await eraseAccountFromRedis(
        { queue: queueClient, rateLimits: this.rateLimiter.client },
        QUEUE_NAMES.map((name) => this.jobs.queue(name)),
        this.config.queue.prefix,
        {
          accountId,
          keyIds: erasure.keyIds,
          jobSubjectIds: [...erasure.previewIds, ...erasure.gateRunIds, ...erasure.fixRunIds, ...erasure.deliveryIds, ...erasure.monitoredDomainIds],
        },
      );
      this.logger.log(`account erased (record ${erasure.erasureId}): ${jobsRemoved} jobs removed`);
      // Named one by one: a job still running past the wait, or a removal Redis refused (docs/privacy.md, "Erasure").
      for (const problem of problems) this.logger.warn(`account erased (record ${erasure.erasureId}); Redis cleanup left ${problem}`);
    } catch (error) {
      // The rows are gone (committed): the keys find nothing, sessions fail their key check, jobs find no row, rate-limit
      // windows and markers expire within minutes. What Redis could not take now is left to that (docs/privacy.md).
      this.logger.warn(`account erased (record ${erasure.erasureId}); Redis cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return erasure;
  }
}
