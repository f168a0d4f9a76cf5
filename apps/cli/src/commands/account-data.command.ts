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
import { bullConnection, createRedisClient, eraseAccountFromRedis, redisOptionsFromUrl } from '@mailproof/queue';
import { CliError, EXIT_CODES } from './cli-errors';
import { resolveAccountId } from './account.command';
import { fail } from './output';

/** PostgreSQL with the repositories an account's data is read and erased through (sources decrypted as the API reads them). */
async function withAccountData<T>(config: MailproofConfig, work: (data: AccountDataRepository, accounts: AccountsRepository) => Promise<T>): Promise<T> {
  const dataSource = new DataSource(buildDataSourceOptions({ url: config.database.url, poolSize: 2 }));
  await dataSource.initialize();
  try {
    const cipher = new RowCipher(new DataKeyRepository(dataSource, new DataKeyring(config.encryption.keys)));
    const previews = new PreviewRepository(dataSource, new ScreenshotRepository(dataSource), cipher);
    const data = new AccountDataRepository(
      dataSource,
      previews,
      new FixRunRepository(dataSource, cipher),
      new GateRunRepository(dataSource, new WebhookRepository(dataSource)),
    );
    return await work(data, new AccountsRepository(dataSource));
  } finally {
    await dataSource.destroy();
  }
}

/** What the account left in Redis goes too, as DELETE /api/account does: sessions, rate-limit windows, jobs; every API replica forgets its keys. */
async function eraseFromRedis(config: MailproofConfig, state: Parameters<typeof eraseAccountFromRedis>[3]) {
  const options = redisOptionsFromUrl(config.redis.url);
  const client = createRedisClient(config.redis, options);
  const queues = QUEUE_NAMES.map((name) => new Queue(name, { connection: bullConnection(config.redis, options), prefix: config.queue.prefix }));
  try {
    return await eraseAccountFromRedis(client, queues, config.queue.prefix, state);
  } finally {
    await Promise.all(queues.map((queue) => queue.close()));
    client.disconnect();
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
    .option('--json', 'print { erasureId, rowCounts } as JSON')
    .action(async (reference: string, options: { confirm?: boolean; json?: boolean }) => {
      if (!options.confirm) throw new CliError('erasing an account cannot be undone: add --confirm', 'usage', EXIT_CODES.usage);
      const config = loadConfig();
      const erasure = await withAccountData(config, async (data, accounts) => {
        const accountId = await resolveAccountId(accounts, reference);
        const erased = await data.erase(accountId, 'cli');
        if (!erased) fail(`no account ${reference}`);
        return { accountId, ...erased };
      });
      await eraseFromRedis(config, {
        accountId: erasure.accountId,
        keyIds: erasure.keyIds,
        jobSubjectIds: [...erasure.previewIds, ...erasure.gateRunIds, ...erasure.fixRunIds, ...erasure.deliveryIds, ...erasure.monitoredDomainIds],
      });
      if (options.json) console.log(JSON.stringify({ erasureId: erasure.erasureId, rowCounts: erasure.rowCounts }));
      else
        console.log(
          `account ${erasure.accountId} erased (audit record ${erasure.erasureId}, ${Object.values(erasure.rowCounts).reduce((a, b) => a + b, 0)} rows)`,
        );
    });
}
