import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { RedisClient } from '@mailproof/queue';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { createTestAccount, openDatabase } from '../utils/database';
import { freePort } from '../utils/free-port';
import { connectMcp, textOf } from '../utils/mcp-client';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { queuePrefixVariable, startWorkerPreview } from '../utils/worker-preview';

/** Every value Redis holds under a prefix, whatever the key's type: job hashes, event streams, lists, sets. */
async function everythingUnder(client: RedisClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  const values: string[] = [];
  for (const key of keys) {
    const type = await client.type(key);
    if (type === 'string') values.push((await client.get(key)) ?? '');
    else if (type === 'hash') values.push(JSON.stringify(await client.hgetall(key)));
    else if (type === 'list') values.push(JSON.stringify(await client.lrange(key, 0, -1)));
    else if (type === 'set') values.push(JSON.stringify(await client.smembers(key)));
    else if (type === 'zset') values.push(JSON.stringify(await client.zrange(key, 0, -1)));
    else if (type === 'stream') values.push(JSON.stringify(await client.xrange(key, '-', '+')));
    values.push(key);
  }
  return values;
}

// Real processes (the built API and worker-preview) on debug logs: the email travels API -> PostgreSQL -> worker, never through Redis or a log line.
describe('customer data in jobs and logs, and retain: false', () => {
  const config = testConfig();
  const queues = openQueues(config);
  const marker = `MARKER${randomBytes(8).toString('hex')}`;
  const html = `<html><body><p>${marker}</p><a href="https://example.com/${marker}">${marker} link</a></body></html>`;
  let db: DataSource;
  let api: AppProcess;
  let worker: AppProcess;
  let url: string;
  let key: string;

  beforeAll(async () => {
    db = await openDatabase(config);
    key = (await createTestAccount(db, 'pro')).key;
    const env = { LOG_LEVEL: 'debug', QUEUE_PREFIX: queuePrefixVariable(config), MIGRATE_ON_START: 'false' };
    worker = await startWorkerPreview(config, queues, env, ['preview', 'gate', 'link-check']);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = startAppProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    await waitFor(async () => (await fetch(`${url}/health/live`).catch(() => null))?.status === 200, 'the API to be live', 30_000);
  }, 90_000);
  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await queues.closeAll(true);
    await db?.destroy();
  });

  const post = (path: string, body: object) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('keeps the email out of every job, Redis key and log line, and retain: false keeps nothing once the chain is done', async () => {
    const kept = await post('/api/preview', { html, clients: ['gmail-web'] });
    expect(kept.status).toBe(200);
    const keptId = ((await kept.json()) as { id: string }).id;
    const unkept = await post('/api/preview', { html, clients: ['gmail-web'], retain: false });
    expect(unkept.status).toBe(200);
    const unkeptBody = (await unkept.json()) as { id: string; overallScore: number };
    expect(JSON.stringify(unkeptBody)).toContain(marker);
    const gate = await post('/api/gate', { html, clients: ['gmail-web'], ref: 'retain-test', retain: false });
    expect(gate.status).toBe(200);
    const gateBody = (await gate.json()) as { runId: string; previewId: string };
    const fix = await post('/api/fix', { html, clients: ['gmail-web'], retain: false });
    expect(fix.status).toBe(200);
    const fixId = ((await fix.json()) as { id: string }).id;
    // The MCP tools take retain too (preview_email is POST /api/preview's work).
    const mcp = await connectMcp(url, key);
    const viaMcp = textOf(await mcp.callTool({ name: 'preview_email', arguments: { html, clients: ['gmail-web'], retain: false } })) as { id: string };
    await mcp.close();
    const broken = await post('/api/preview', { html: `export default function Email() { return <p>${marker}</p `, format: 'jsx', clients: ['gmail-web'] });
    expect(broken.status).toBeGreaterThanOrEqual(400);

    // retain: false: the rows keep their scores and verdict, the email is gone at once.
    const rows: Array<{ id: string; source: string; result: Buffer | null; overall_score: number | null; removed: boolean }> = await db.query(
      'SELECT id, source, result, overall_score, content_removed_at IS NOT NULL AS removed FROM previews WHERE id = ANY($1)',
      [[keptId, unkeptBody.id, gateBody.previewId, viaMcp.id]],
    );
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId[keptId]).toMatchObject({ removed: false });
    expect(byId[keptId].source).not.toBe('');
    for (const id of [unkeptBody.id, gateBody.previewId, viaMcp.id]) {
      expect(byId[id]).toMatchObject({ source: '', result: null, removed: true });
      expect(byId[id].overall_score).toEqual(expect.any(Number));
    }
    const [run]: Array<{ status: string; verdict: unknown }> = await db.query('SELECT status, verdict FROM gate_runs WHERE id = $1', [gateBody.runId]);
    expect(run.status).toBe('completed');
    expect(run.verdict).not.toBeNull();
    expect(await db.query('SELECT id FROM fix_runs WHERE id = $1', [fixId])).toEqual([]);
    const gone = await fetch(`${url}/api/preview/${unkeptBody.id}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ code: 'content_gone', contentRemoved: true, overallScore: unkeptBody.overallScore });

    // Jobs ran (their ids are in Redis), yet no job, result, event or other key holds the email.
    const client = (await queues.preview.getBackend().client) as unknown as RedisClient;
    const stored = await everythingUnder(client, `${config.queue.prefix}:`);
    expect(stored.some((value) => value.includes(keptId))).toBe(true);
    expect(stored.filter((value) => value.includes(marker))).toEqual([]);
    const logs = api.output() + worker.output();
    expect(logs).toMatch(/"level":(20|30)/);
    expect(logs).not.toContain(marker);
  }, 120_000);

  it('treats an account keeping 0 days as retain: false on every request: nothing is kept once the chain is done', async () => {
    const zero = await createTestAccount(db, 'pro');
    await db.query('UPDATE accounts SET retention_days = 0 WHERE id = $1', [zero.accountId]);
    const postAs = (path: string, body: object) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${zero.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const preview = await postAs('/api/preview', { html, clients: ['gmail-web'] });
    expect(preview.status).toBe(200);
    const previewBody = (await preview.json()) as { id: string };
    expect(JSON.stringify(previewBody)).toContain(marker);
    const gate = await postAs('/api/gate', { html, clients: ['gmail-web'], ref: 'zero-days' });
    expect(gate.status).toBe(200);
    const gateBody = (await gate.json()) as { previewId: string };
    const fix = await postAs('/api/fix', { html, clients: ['gmail-web'] });
    expect(fix.status).toBe(200);
    const fixId = ((await fix.json()) as { id: string }).id;

    // The row says retain = false from its INSERT on, and the content went when the request's chain was done.
    const rows: Array<{ retain: boolean; source: string; result: Buffer | null; removed: boolean }> = await db.query(
      'SELECT retain, source, result, content_removed_at IS NOT NULL AS removed FROM previews WHERE id = ANY($1)',
      [[previewBody.id, gateBody.previewId]],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ retain: false, source: '', result: null, removed: true });
    expect(await db.query('SELECT id FROM fix_runs WHERE id = $1', [fixId])).toEqual([]);
  }, 60_000);
});
