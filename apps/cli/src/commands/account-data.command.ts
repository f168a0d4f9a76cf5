import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError, EXIT_CODES } from './cli-errors';
import { resolveAccountId } from './account-reference';
import { fail } from './output';

/** PostgreSQL, Redis and BullMQ's code, loaded when `account export` or `account delete` runs (docs/cli.md, "Start-up"). */
const store = () => import('./account-data-store');

/** What an erasure leaves in Redis when Redis cannot be reached, and when it goes by itself (docs/privacy.md). */
const REDIS_LEFT_TO_EXPIRE =
  'Left in Redis to expire on its own: rate-limit windows (within a minute), last-used markers (minutes), dashboard sessions (their TTL), ' +
  'jobs (completed within an hour, failed within a day); none of them can reach the erased rows. Other API replicas, not told, forget its API keys within API_KEY_CACHE_TTL_MS and keep its data key in memory until evicted or restarted (the rows it opened are gone).';

/** How long `account delete` waits for Redis by default once the rows are gone (`--redis-wait`). */
const DEFAULT_REDIS_WAIT_SECONDS = 30;

/** `account export` and `account delete`: the operator's side of GET /api/account/export and DELETE /api/account (docs/privacy.md). */
export function registerAccountDataCommands(account: Command): void {
  account
    .command('export')
    .description('write everything stored for an account as JSON (the same document as GET /api/account/export)')
    .argument('<account>', 'account id or name')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (reference: string, options: { out?: string }) => {
      const { loadConfig, withAccountData } = await store();
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
      const { loadConfig, withAccountData, eraseFromRedis } = await store();
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
