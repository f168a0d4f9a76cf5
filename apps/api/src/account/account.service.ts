import { Injectable, Logger } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { QUEUE_NAMES } from '@mailproof/contracts';
import { AccountDataRepository, type AccountErasure, type AccountSettings, type ErasureRequester, type Plan } from '@mailproof/persistence';
import { JobProducer, type RedisClient } from '@mailproof/queue';
import type { Queue } from 'bullmq';
import { AccountRevocations } from '../auth/account-revocations.service';
import { DashboardSessionStore } from '../auth/dashboard-session.store';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { ProblemException } from '../problems/problem.exception';
import type { AccountResponse } from './dto/account.response';

/** The longest retention each plan may choose (docs/privacy.md). */
export const MAX_RETENTION_DAYS: Readonly<Record<Plan, number>> = { free: 30, pro: 365 };

const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

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

/** Every key of a Redis (each master of a Cluster) matching a pattern. */
async function scanKeys(client: RedisClient, pattern: string): Promise<string[]> {
  const nodes = 'nodes' in client ? client.nodes('master') : [client];
  const keys: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
  }
  return keys;
}

/** The account's own data: retention settings, export and erasure (GET/PATCH/DELETE /api/account, the dashboard's account page). */
@Injectable()
export class AccountService {
  private readonly logger = new Logger('AccountData');

  constructor(
    private readonly config: MailproofConfig,
    private readonly accountData: AccountDataRepository,
    private readonly jobs: JobProducer,
    private readonly sessions: DashboardSessionStore,
    private readonly revocations: AccountRevocations,
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
   * at once, its dashboard sessions end, its rate-limit and last-used markers and its jobs go.
   */
  async erase(accountId: string, requestedBy: ErasureRequester): Promise<AccountErasure> {
    const erasure = await this.accountData.erase(accountId, requestedBy);
    if (!erasure) throw new ProblemException('not_found', 'No such account.');
    await this.revocations.revokeAccount(accountId);
    for (const keyId of erasure.keyIds) await this.sessions.destroyForKey(keyId);
    const client = (await this.jobs.queue('preview').getBackend().client) as unknown as RedisClient;
    const prefix = this.config.queue.prefix;
    const markers = [...(['free', 'pro', 'anonymous'] as const).map((tier) => `${prefix}:rl:${tier}:account:${accountId}`)];
    markers.push(...erasure.keyIds.map((keyId) => `${prefix}:last-used:${keyId}`));
    for (const key of markers) await client.del(key);
    const removed = await this.removeJobs(erasure);
    this.logger.log(`account erased (record ${erasure.erasureId}): ${removed} jobs removed`);
    return erasure;
  }

  /** Jobs name their subject by id (previews, runs, deliveries, domains): every job of the account's ids goes, whatever its state. */
  private async removeJobs(erasure: AccountErasure): Promise<number> {
    const ids = new Set([...erasure.previewIds, ...erasure.gateRunIds, ...erasure.fixRunIds, ...erasure.deliveryIds, ...erasure.monitoredDomainIds]);
    if (ids.size === 0) return 0;
    let removed = 0;
    for (const name of QUEUE_NAMES) {
      const queue: Queue = this.jobs.queue(name);
      const keyPrefix = queue.toKey('');
      const jobIds = new Set<string>();
      for (const key of await scanKeys((await queue.getBackend().client) as unknown as RedisClient, `${keyPrefix}*`)) {
        const jobId = key.slice(keyPrefix.length).split(':')[0];
        const named = [...jobId.split('-'), ...(jobId.match(UUID_IN) ?? [])];
        if (named.some((part) => ids.has(part))) jobIds.add(jobId);
      }
      for (const jobId of jobIds) removed += await queue.remove(jobId, { removeChildren: true }).catch(() => 0);
    }
    return removed;
  }
}
