import type { Queue } from 'bullmq';
import type { RedisClient } from './redis-connection';

/** What an erased account left in Redis is found by: its id, its keys' ids, and the ids its jobs are named after. */
export interface AccountRedisState {
  accountId: string;
  keyIds: readonly string[];
  /** Previews, gate runs, fix runs, webhook deliveries, monitored domains: job ids are built from these. */
  jobSubjectIds: readonly string[];
}

/** The channel every API replica listens on to drop an erased account's keys from its cache at once. */
export function accountErasedChannel(prefix: string): string {
  return `${prefix}:account-erased`;
}

const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

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

/** Jobs name their subject by id: every job of the account's ids goes, whatever its state. */
async function removeJobs(queues: readonly Queue[], subjectIds: ReadonlySet<string>): Promise<number> {
  if (subjectIds.size === 0) return 0;
  let removed = 0;
  for (const queue of queues) {
    const keyPrefix = queue.toKey('');
    const jobIds = new Set<string>();
    for (const key of await scanKeys((await queue.getBackend().client) as unknown as RedisClient, `${keyPrefix}*`)) {
      const jobId = key.slice(keyPrefix.length).split(':')[0];
      if ([...jobId.split('-'), ...(jobId.match(UUID_IN) ?? [])].some((part) => subjectIds.has(part))) jobIds.add(jobId);
    }
    for (const jobId of jobIds) removed += await queue.remove(jobId, { removeChildren: true }).catch(() => 0);
  }
  return removed;
}

/**
 * Removes what Redis holds of an erased account (docs/privacy.md) and tells every API replica: the
 * rate-limit windows and last-used markers (apps/api RateLimiterService), the dashboard sessions opened
 * with its keys (DashboardSessionStore: a set per key lists them) and its jobs. Shared caches keyed by
 * URL or domain (link checks, DNS) name no account and stay.
 */
export async function eraseAccountFromRedis(
  client: RedisClient,
  queues: readonly Queue[],
  prefix: string,
  state: AccountRedisState,
): Promise<{ keysDeleted: number; jobsRemoved: number }> {
  await client.publish(accountErasedChannel(prefix), state.accountId);
  const keys = (['free', 'pro', 'anonymous'] as const).map((tier) => `${prefix}:rl:${tier}:account:${state.accountId}`);
  for (const keyId of state.keyIds) {
    const sessionSet = `${prefix}:dashboard:key-sessions:${keyId}`;
    keys.push(`${prefix}:last-used:${keyId}`, sessionSet, ...(await client.smembers(sessionSet)).map((hash) => `${prefix}:dashboard:session:${hash}`));
  }
  let keysDeleted = 0;
  // One DEL per key: on a Redis Cluster the keys live in different slots.
  for (const key of keys) keysDeleted += await client.del(key);
  const jobsRemoved = await removeJobs(queues, new Set(state.jobSubjectIds));
  return { keysDeleted, jobsRemoved };
}
