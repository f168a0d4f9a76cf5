import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { loadConfig, type MailproofConfig } from '@mailproof/config';
import { QUEUE_NAMES } from '@mailproof/contracts';
import {
  AccountDataRepository,
  AccountsRepository,
  buildDataSourceOptions,
  DataKeyRepository,
  DataKeyring,
  FixRunRepository,
  GateRunRepository,
  PreviewRepository,
  RowCipher,
  ScreenshotRepository,
  WebhookRepository,
} from '@mailproof/persistence';
import { createRedisClient, eraseAccountFromRedis, redisOptionsFromUrl } from '@mailproof/queue';
import { CliError, EXIT_CODES } from './cli-errors';
import { resolveAccountId } from './account-reference';
import { fail } from './output';

/** PostgreSQL with the repositories an account's data is read and erased through (sources decrypted as the API reads them). */
async function withAccountData<T>(config: MailproofConfig, work: (data: AccountDataRepository, accounts: AccountsRepository) => Promise<T>): Promise<T> {
  const dataSource = new DataSource(buildDataSourceOptions({ url: config.database.url, poolSize: 2 }));
  await dataSource.initialize();
  try {
    const dataKeys = new DataKeyRepository(dataSource, new DataKeyring(config.encryption.keys));
    const cipher = new RowCipher(dataKeys);
    const screenshots = new ScreenshotRepository(dataSource, cipher);
    const previews = new PreviewRepository(dataSource, screenshots, cipher);
    const webhooks = new WebhookRepository(dataSource, cipher);
    const data = new AccountDataRepository(
      dataSource,
      previews,
      new FixRunRepository(dataSource, cipher),
      new GateRunRepository(dataSource, webhooks, cipher),
      dataKeys,
      webhooks,
      screenshots,
    );
    return await work(data, new AccountsRepository(dataSource));
  } finally {
    await dataSource.destroy();
  }
}

/** What an erasure leaves in Redis when Redis cannot be reached, and when it goes by itself (docs/privacy.md). */
const REDIS_LEFT_TO_EXPIRE =
  'Left in Redis to expire on its own: rate-limit windows (within a minute), last-used markers (minutes), dashboard sessions (their TTL), ' +
  'jobs (completed within an hour, failed within a day); none of them can reach the erased rows. Other API replicas, not told, forget its API keys within API_KEY_CACHE_TTL_MS and keep its data key in memory until evicted or restarted (the rows it opened are gone).';

/** How long `account delete` waits for Redis by default once the rows are gone (`--redis-wait`). */
const DEFAULT_REDIS_WAIT_SECONDS = 30;

/**
 * What the account left in Redis goes too, as DELETE /api/account does: sessions, rate-limit windows (on the rate
 * limiter's Redis), jobs; every API replica forgets its keys. Within `waitMs`: Redis down or silent fails it then
 * (its clients retry forever otherwise), and the connections are dropped rather than closed.
 */
async function eraseFromRedis(config: MailproofConfig, state: Parameters<typeof eraseAccountFromRedis>[3], waitMs: number) {
  const options = redisOptionsFromUrl(config.redis.url);
  const client = createRedisClient(config.redis, options);
  const rateLimitClient =
    config.rateLimits.redis.url === config.redis.url ? client : createRedisClient(config.rateLimits.redis, redisOptionsFromUrl(config.rateLimits.redis.url));
  for (const redis of new Set([client, rateLimitClient])) redis.on('error', () => undefined);
  // The queues share this command's own client, so disconnecting it ends every connection even if Redis never answered
  // (BullMQ's own connections would wait to be ready before they close, and keep the process alive).
  const queues = QUEUE_NAMES.map((name) => new Queue(name, { connection: client, prefix: config.queue.prefix }));
  for (const queue of queues) queue.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${waitMs / 1000} s`)), waitMs);
  });
  try {
    return await Promise.race([eraseAccountFromRedis({ queue: client, rateLimits: rateLimitClient }, queues, config.queue.prefix, state), deadline]);
  } finally {
    clearTimeout(timer);
    client.disconnect();
    rateLimitClient.disconnect();
  }
}

/** `account export` and `account delete`: the operator's side of GET /api/account/export and DELETE /api/account (docs/privacy.md). */
export function registerAccountDataCommands(account: Command): void {
  account
    .command('export')
    .description('write everything stored for an account as JSON (the same document as GET /api/account/export)')
    .argument('<account>', 'account id or name')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (reference: string, options: { out?: string }) => {
      const config = loadConfig();
      await withAccountData(config, async (data, accounts) => {
        const accountId = await resolveAccountId(accounts, reference);
        if (!(await data.findSettings(accountId))) fail(`no account ${reference}`);
        const out: Writable = options.out ? createWriteStream(options.out) : process.stdout;
        await pipeline(Readable.from(data.exportChunks(accountId)), out, { end: Boolean(options.out) });
      });
    });

  account
    .command('delete')
    .description('erase an account: every row, its screenshots, its Redis keys and jobs; one audit record of counts stays (needs --confirm)')
    .argument('<account>', 'account id or name')
    .option('--confirm', 'really erase it (nothing can bring it back)')
    .option('--json', 'print { erasureId, rowCounts, redis } as JSON')
    .option('--redis-wait <seconds>', 'how long to wait for Redis once the rows are gone', String(DEFAULT_REDIS_WAIT_SECONDS))
    .action(async (reference: string, options: { confirm?: boolean; json?: boolean; redisWait: string }) => {
      if (!options.confirm) throw new CliError('erasing an account cannot be undone: add --confirm', 'usage', EXIT_CODES.usage);
      const redisWaitSeconds = Number(options.redisWait);
      if (!(redisWaitSeconds > 0)) throw new CliError('--redis-wait must be a positive number of seconds', 'usage', EXIT_CODES.usage);
      const config = loadConfig();
      const erasure = await withAccountData(config, async (data, accounts) => {
        const accountId = await resolveAccountId(accounts, reference);
        const erased = await data.erase(accountId, 'cli');
        if (!erased) fail(`no account ${reference}`);
        return { accountId, ...erased };
      });
      // The rows are gone (committed): whatever Redis does now, the erasure stands and its record's id is printed.
      const redis = await eraseFromRedis(
        config,
        {
          accountId: erasure.accountId,
          keyIds: erasure.keyIds,
          jobSubjectIds: [...erasure.previewIds, ...erasure.gateRunIds, ...erasure.fixRunIds, ...erasure.deliveryIds, ...erasure.monitoredDomainIds],
        },
        redisWaitSeconds * 1000,
      ).then(
        (removed) => ({ cleaned: true as const, ...removed }),
        (error: unknown) => ({ cleaned: false as const, error: error instanceof Error ? error.message : String(error) }),
      );
      const rows = Object.values(erasure.rowCounts).reduce((a, b) => a + b, 0);
      if (options.json) console.log(JSON.stringify({ erasureId: erasure.erasureId, rowCounts: erasure.rowCounts, redis }));
      else console.log(`account ${erasure.accountId} erased (audit record ${erasure.erasureId}, ${rows} rows)`);
      if (!redis.cleaned) console.error(`warning: Redis cleanup failed (${redis.error}). ${REDIS_LEFT_TO_EXPIRE}`);
      else for (const problem of redis.problems) console.error(`warning: Redis cleanup left ${problem}`);
    });
}
