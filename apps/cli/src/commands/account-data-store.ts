import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import type { MailproofConfig } from '@mailproof/config';
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

export { loadConfig } from '@mailproof/config';

// What `account export` and `account delete` open (account-data.command.ts loads this file when one of them runs).

/** PostgreSQL with the repositories an account's data is read and erased through (sources decrypted as the API reads them). */
export async function withAccountData<T>(config: MailproofConfig, work: (data: AccountDataRepository, accounts: AccountsRepository) => Promise<T>): Promise<T> {
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

/**
 * What the account left in Redis goes too, as DELETE /api/account does: sessions, rate-limit windows (on the rate
 * limiter's Redis), jobs; every API replica forgets its keys. Within `waitMs`: Redis down or silent fails it then
 * (its clients retry forever otherwise), and the connections are dropped rather than closed.
 */
export async function eraseFromRedis(config: MailproofConfig, state: Parameters<typeof eraseAccountFromRedis>[3], waitMs: number) {
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
