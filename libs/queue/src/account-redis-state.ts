import type { Queue } from 'bullmq';
import type { DnsAuditJobPayload } from '@mailproof/contracts';
import { queueRedisClient } from './queue-redis-client';
import type { RedisClient } from './redis-connection';

/** What an erased account left in Redis is found by: its id, its keys' ids, and the ids its jobs are named after. */
export interface AccountRedisState {
  accountId: string;
  keyIds: readonly string[];
  /** Previews, gate runs, fix runs, webhook deliveries, monitored domains: job ids are built from these. */
  jobSubjectIds: readonly string[];
}

/**
 * The two Redis connections an account's state lives on: the queue's (jobs, dashboard sessions, the erasure
 * channel: REDIS_URL) and the rate limiter's (windows and last-used markers: RATE_LIMIT_REDIS_URL, else the same Redis).
 */
export interface AccountRedisClients {
  queue: RedisClient;
  rateLimits: RedisClient;
}

/** Queues whose jobs name their account in their data, not in their id (on-demand DNS audits: a random job id). */
const ACCOUNT_DATA_QUEUES: ReadonlySet<string> = new Set(['dns-audit']);
/** The most jobs of such a queue read per state in one erasure: completed ones are kept an hour, failed a day (job-defaults.ts). */
const MAX_JOBS_READ = 10_000;
const JOBS_PAGE = 500;
const JOB_STATES = ['waiting', 'prioritized', 'delayed', 'waiting-children', 'active', 'completed', 'failed'] as const;
/**
 * How long an erasure waits for the account's jobs a worker is running (BullMQ refuses to remove a locked job) before it
 * reports them: longer than a step normally runs (a gate's link check is capped at 10 s, an analysis at the engine's limits).
 */
export const ACTIVE_JOB_WAIT_MS = 15_000;
const ACTIVE_JOB_POLL_MS = 100;

/** What an erasure did in Redis, and what it could not do (each named: never dropped). */
export interface AccountRedisErasure {
  keysDeleted: number;
  jobsRemoved: number;
  /** `<queue>/<job id>: why`: a job still running when the wait ended, or a removal Redis refused. Empty when all went. */
  problems: string[];
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

/** Jobs whose data names the account (`accountId`), in the queues that carry it there: read in pages, at most MAX_JOBS_READ per state. */
async function accountJobIds(queue: Queue, accountId: string): Promise<string[]> {
  if (!ACCOUNT_DATA_QUEUES.has(queue.name)) return [];
  const ids = new Set<string>();
  for (const state of JOB_STATES) {
    for (let start = 0; start < MAX_JOBS_READ; start += JOBS_PAGE) {
      const page = await queue.getJobs([state], start, start + JOBS_PAGE - 1, true);
      for (const job of page) {
        // The queues read here carry dns-audit jobs (ACCOUNT_DATA_QUEUES); BullMQ types a job's data as any.
        const data: Pick<DnsAuditJobPayload, 'accountId'> | undefined = job?.data;
        if (job?.id && data?.accountId === accountId) ids.add(job.id);
      }
      if (page.length < JOBS_PAGE) break;
    }
  }
  return [...ids];
}

/** A job to remove, in its queue. */
interface DoomedJob {
  queue: Queue;
  jobId: string;
}

/**
 * Jobs name their subject by id, or (on-demand DNS audits) their account in their data: every such job goes, whatever its state.
 * A job a worker is running is locked, and BullMQ's remove answers 0 for it: the erasure waits for it to end (its worker then
 * finds no row of the account and stores nothing), retrying the removal until `activeWaitMs` has passed; one still running
 * then is reported, as is any removal Redis refused, never dropped.
 */
async function removeJobs(
  queues: readonly Queue[],
  subjectIds: ReadonlySet<string>,
  accountId: string,
  activeWaitMs: number,
): Promise<{ removed: number; problems: string[] }> {
  const problems: string[] = [];
  let pending: DoomedJob[] = [];
  const found = new Map<Queue, Set<string>>();
  for (const queue of queues) {
    const keyPrefix = queue.toKey('');
    const jobIds = new Set<string>(await accountJobIds(queue, accountId));
    const client = await queueRedisClient(queue);
    const keys = subjectIds.size > 0 ? await scanKeys(client, `${keyPrefix}*`) : [];
    for (const key of keys) {
      const jobId = key.slice(keyPrefix.length).split(':')[0];
      if ([...jobId.split('-'), ...(jobId.match(UUID_IN) ?? [])].some((part) => subjectIds.has(part))) jobIds.add(jobId);
    }
    found.set(queue, jobIds);
    pending.push(...[...jobIds].map((jobId) => ({ queue, jobId })));
  }
  let removed = 0;
  const deadline = Date.now() + activeWaitMs;
  for (;;) {
    const locked: DoomedJob[] = [];
    for (const job of pending) {
      const outcome = await removeOne(job);
      if (outcome === 'removed') removed++;
      else if (outcome === 'locked') locked.push(job);
      else problems.push(`${job.queue.name}/${job.jobId}: ${outcome.error}`);
    }
    pending = locked;
    if (pending.length === 0 || Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, ACTIVE_JOB_POLL_MS));
  }
  for (const job of pending)
    problems.push(`${job.queue.name}/${job.jobId}: still running after ${activeWaitMs} ms, not removed (its worker finds no row of the account)`);
  for (const [queue, jobIds] of found) if (jobIds.size > 0) await deleteJobEvents(await queueRedisClient(queue), queue.toKey('events'), jobIds);
  return { removed, problems };
}

/** One removal: done (or nothing left to remove), refused because a worker holds the job's lock, or an error to report. */
async function removeOne({ queue, jobId }: DoomedJob): Promise<'removed' | 'locked' | { error: string }> {
  try {
    const code = await queue.remove(jobId, { removeChildren: true });
    // 1: removed (or already gone); 0: locked by a worker running it; anything else is BullMQ refusing it.
    return code === 1 ? 'removed' : code === 0 ? 'locked' : { error: `BullMQ refused to remove it (code ${code})` };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The queue's event stream names jobs by id (added, waiting, completed, removed...): the entries of the removed jobs go
 * too. The stream is capped by BullMQ (about 10,000 entries), so reading it whole is bounded.
 */
async function deleteJobEvents(client: RedisClient, streamKey: string, jobIds: ReadonlySet<string>): Promise<void> {
  const doomed: string[] = [];
  let start = '-';
  for (;;) {
    const entries = await client.xrange(streamKey, start, '+', 'COUNT', JOBS_PAGE);
    for (const [entryId, fields] of entries) {
      const jobId = fields[fields.indexOf('jobId') + 1];
      if (fields.includes('jobId') && jobIds.has(jobId)) doomed.push(entryId);
    }
    if (entries.length < JOBS_PAGE) break;
    start = `(${entries[entries.length - 1][0]}`;
  }
  for (let i = 0; i < doomed.length; i += JOBS_PAGE) await client.xdel(streamKey, ...doomed.slice(i, i + JOBS_PAGE));
}

/**
 * Removes what Redis holds of an erased account (docs/privacy.md) and tells every API replica: the
 * rate-limit windows and last-used markers (apps/api RateLimiterService, on its own connection), the
 * dashboard sessions opened with its keys (DashboardSessionStore: a set per key lists them) and its jobs. Shared caches keyed by
 * URL or domain (link checks, DNS) name no account and stay.
 */
export async function eraseAccountFromRedis(
  clients: AccountRedisClients,
  queues: readonly Queue[],
  prefix: string,
  state: AccountRedisState,
  activeWaitMs = ACTIVE_JOB_WAIT_MS,
): Promise<AccountRedisErasure> {
  await clients.queue.publish(accountErasedChannel(prefix), state.accountId);
  const rateLimitKeys = [
    ...(['free', 'pro', 'anonymous'] as const).map((tier) => `${prefix}:rl:${tier}:account:${state.accountId}`),
    ...state.keyIds.map((keyId) => `${prefix}:last-used:${keyId}`),
  ];
  const sessionKeys: string[] = [];
  for (const keyId of state.keyIds) {
    const sessionSet = `${prefix}:dashboard:key-sessions:${keyId}`;
    sessionKeys.push(sessionSet, ...(await clients.queue.smembers(sessionSet)).map((hash) => `${prefix}:dashboard:session:${hash}`));
  }
  let keysDeleted = 0;
  // One DEL per key: on a Redis Cluster the keys live in different slots.
  for (const key of rateLimitKeys) keysDeleted += await clients.rateLimits.del(key);
  for (const key of sessionKeys) keysDeleted += await clients.queue.del(key);
  const jobs = await removeJobs(queues, new Set(state.jobSubjectIds), state.accountId, activeWaitMs);
  return { keysDeleted, jobsRemoved: jobs.removed, problems: jobs.problems };
}
