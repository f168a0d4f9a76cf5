import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { accountErasedChannel, createRedisClient, redisOptionsFromUrl } from '@mailproof/queue';
import { createTestAccountRows } from '../utils/account-rows';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { freePort } from '../utils/free-port';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

const ROOT = join(__dirname, '..', '..');

/** The built `mailproof` command (asynchronously: the in-process API must keep answering while it runs). */
function mailproof(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return mailproofWith(process.env, ...args);
}

function mailproofWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'mailproof.js'), ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('mailproof account export and account delete', () => {
  const config = testConfig({ API_KEY_CACHE_TTL_MS: 5_000 });
  const queues = openQueues(config);
  let db: DataSource;
  let api: RunningApi;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await queues.closeAll(true);
    await db?.destroy();
  });

  it('exports the account to a file, refuses to erase without --confirm, then erases it and its key stops working at once', async () => {
    const account = await createTestAccount(db, 'pro');
    const rows = await createTestAccountRows(api.app, db, account);
    await request(api.url).get('/api/keys').set('Authorization', `Bearer ${account.key}`).expect(200);

    const out = join(mkdtempSync(join(tmpdir(), 'mailproof-export-')), 'export.json');
    const exported = await mailproof('account', 'export', account.accountId, '--out', out);
    expect(exported).toMatchObject({ code: 0 });
    const data = JSON.parse(readFileSync(out, 'utf8')) as { account: { id: string }; previews: Array<{ source: string }> };
    expect(data.account.id).toBe(account.accountId);
    expect(data.previews[0].source).toContain(rows.marker);
    expect(readFileSync(out, 'utf8')).not.toContain(rows.webhookSecret);

    const refused = await mailproof('account', 'delete', account.accountId);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--confirm');
    expect(await db.query('SELECT id FROM accounts WHERE id = $1', [account.accountId])).toHaveLength(1);

    // Every API replica listens for erasures; the test listens too, to see the CLI announce this one.
    const announced: string[] = [];
    const listener = createRedisClient(config.redis, redisOptionsFromUrl(config.redis.url));
    listener.on('message', (_channel: string, accountId: string) => announced.push(accountId));
    await listener.subscribe(accountErasedChannel(config.queue.prefix));
    const erased = await mailproof('account', 'delete', account.accountId, '--confirm', '--json');
    expect(erased.code).toBe(0);
    expect(JSON.parse(erased.stdout).rowCounts).toMatchObject({ accounts: 1, previews: 1, fix_runs: 1, gate_runs: 1 });
    await waitFor(() => announced.includes(account.accountId), 'the erasure to be announced on Redis', 10_000);
    listener.disconnect();
    await request(api.url).get('/api/keys').set('Authorization', `Bearer ${account.key}`).expect(401);
    expect(await db.query('SELECT id FROM previews WHERE id = $1', [rows.previewId])).toEqual([]);
    const [record]: Array<{ requested_by: string }> = await db.query('SELECT requested_by FROM account_erasures WHERE id = $1', [
      JSON.parse(erased.stdout).erasureId,
    ]);
    expect(record.requested_by).toBe('cli');

    const missing = await mailproof('account', 'delete', account.accountId, '--confirm');
    expect(missing.code).not.toBe(0);
  }, 90_000);

  it('erases with Redis unreachable: prints the erasure record, says what is left to expire, and exits instead of waiting for Redis', async () => {
    const account = await createTestAccount(db, 'free');
    // Nothing listens there: the CLI's Redis clients would retry for ever without the deadline.
    const deadRedis = `redis://127.0.0.1:${await freePort()}`;
    const env = { ...process.env, REDIS_URL: deadRedis, RATE_LIMIT_REDIS_URL: deadRedis };
    const erased = await mailproofWith(env, 'account', 'delete', account.accountId, '--confirm', '--json', '--redis-wait', '1');
    expect(erased.code).toBe(0);
    const printed = JSON.parse(erased.stdout) as { erasureId: string; redis: { cleaned: boolean } };
    expect(printed.redis.cleaned).toBe(false);
    expect(erased.stderr).toContain('Left in Redis to expire on its own');
    expect(await db.query('SELECT id FROM accounts WHERE id = $1', [account.accountId])).toEqual([]);
    expect(await db.query('SELECT requested_by FROM account_erasures WHERE id = $1', [printed.erasureId])).toEqual([{ requested_by: 'cli' }]);

    const badWait = await mailproof('account', 'delete', account.accountId, '--confirm', '--redis-wait', 'soon');
    expect(badWait.code).not.toBe(0);
    expect(badWait.stderr).toContain('--redis-wait');
  }, 90_000);
});
