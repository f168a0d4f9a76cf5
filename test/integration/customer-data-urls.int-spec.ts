import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import {
  decodePreviewResult,
  isSealed,
  isSharedPreviewResult,
  RetentionRepository,
  TEXT_PREFIX,
  WebhookRepository,
  type RowCipher,
} from '@mailproof/persistence';
import type { RedisClient } from '@mailproof/queue';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { solidPng } from '../utils/loopback-servers';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * URLs of an email are customer data exactly as its text is (docs/privacy.md; decisions §13): a marker in the email's
 * text and in every one of its URLs, driven through every path (a preview with screenshots, a gate with resolveLinks
 * against a local site, a failing gate with a webhook, retain: false, the retention purge, erasure). After each, every
 * column of every PostgreSQL table (information_schema, whatever its type: text, jsonb, bytea, Brotli inside) is read raw
 * and, where sealed, opened as the repositories open it; every Redis key under the deployment's prefix, whatever its
 * type, and the export are read too. While kept, the marker is only ever inside ciphertext; once purged, retained
 * false or erased, nothing the service can read back holds it.
 */
describe('URLs and text of an email: sealed while kept, gone after a purge, retain: false or an erasure', () => {
  const config = testConfig({ PREVIEW_RENDER_WAIT_MS: 60_000, GATE_BUDGET_MS: 30_000, GATE_LINKS_BUDGET_MS: 30_000 });
  const queues = openQueues(config);
  let db: DataSource;
  let cipher: RowCipher;
  let api: RunningApi;
  let previewWorker: AppProcess;
  let renderWorker: AppProcess;
  let site: http.Server;
  let siteUrl = '';

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      const path = req.url ?? '/';
      if (path.startsWith('/missing/')) return void res.writeHead(404).end();
      if (path.startsWith('/moved/')) return void res.writeHead(302, { location: `/final${path.slice('/moved'.length)}` }).end();
      if (path.startsWith('/img/')) return void res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(40, 20, [200, 40, 40]));
      res.writeHead(200, { 'content-type': 'text/html' }).end('ok');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    db = await openDatabase(config);
    cipher = testRowCipher(db, config);
    previewWorker = await startWorkerPreview(config, queues, { SSRF_ALLOWED_ADDRESSES: '127.0.0.1' }, ['preview', 'gate', 'link-check']);
    renderWorker = startAppProcess('worker-render', { QUEUE_PREFIX: config.queue.prefix, MIGRATE_ON_START: 'false', SSRF_ALLOWED_ADDRESSES: '127.0.0.1' });
    await waitFor(async () => (await queues.render.getWorkersCount()) > 0, 'the worker-render process to consume render', 60_000);
    api = await startTestApi(config);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await renderWorker?.stop();
    await previewWorker?.stop();
    await queues.closeAll();
    await db?.destroy();
    await new Promise((resolve) => site.close(resolve));
  });

  /** An email whose text and every URL (a link that answers, one that is missing, one that redirects, an image without alt) carry the marker. */
  const emailWith = (marker: string) =>
    `<html><body><p>Receipt ${marker}</p>
      <a href="${siteUrl}/ok/${marker}?token=${marker}">Your order</a>
      <a href="${siteUrl}/missing/${marker}">Reset your password</a>
      <a href="${siteUrl}/moved/${marker}">Track it</a>
      <img src="${siteUrl}/img/${marker}.png" width="40" height="20">
    </body></html>`;

  const newMarker = (path: string) => `MRK${path}${randomBytes(6).toString('hex')}`;

  /** An account with a webhook endpoint on gate.failed (its deliveries stay queued: no worker-dns here; the event is what is stored). */
  async function accountWithWebhook() {
    const account = await createTestAccount(db, 'pro');
    const endpoint = await api.app.get(WebhookRepository).addEndpoint(account.accountId, 'https://hooks.example.com/in', ['gate.failed'], 'whsec_dGVzdA==', 10);
    expect(endpoint.status).toBe('created');
    return account;
  }

  const post = (key: string, path: string, body: object) => request(api.url).post(path).set('Authorization', `Bearer ${key}`).send(body);

  /** A preview with screenshots and a failing gate run that resolves the links, both of the marked email. */
  async function driveEmail(key: string, marker: string, options: { retain?: boolean } = {}) {
    const html = emailWith(marker);
    const retain = options.retain === undefined ? {} : { retain: options.retain };
    const preview = await post(key, '/api/preview', { html, clients: ['gmail-web'], screenshots: true, ...retain });
    expect(preview.status).toBe(200);
    const gate = await post(key, '/api/gate', { html, clients: ['gmail-web'], threshold: 100, resolveLinks: true, ...retain });
    expect(gate.status).toBe(200);
    expect(gate.body.passed).toBe(false);
    // The answer is the client's own: it names the email's URLs (the unreachable link, the image without alt).
    expect(gate.body.failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ check: 'link-unreachable', url: `${siteUrl}/missing/${marker}` }),
        expect.objectContaining({ check: 'alt-text', src: `${siteUrl}/img/${marker}.png` }),
      ]),
    );
    return { previewId: preview.body.id as string, screenshots: (preview.body.screenshots ?? {}) as Record<string, string>, runId: gate.body.runId as string };
  }

  interface Finding {
    place: string;
    marker: string;
  }

  /** Text forms of a bytea value: as is, Brotli-decoded when it is Brotli, and the JSON of a stored result (shared pieces). */
  function textsOfBytes(bytes: Buffer): string[] {
    const texts = [bytes.toString('latin1')];
    try {
      texts.push(brotliDecompressSync(bytes).toString('utf8'));
    } catch {
      // Not Brotli.
    }
    if (isSharedPreviewResult(bytes)) texts.push(decodePreviewResult(bytes).toString('utf8'));
    return texts;
  }

  /**
   * Every column of every table, read raw: where a marker is in clear (`clear`), and where it is inside a sealed value
   * that opens with the repositories' cipher (`sealed`). A value whose data key was destroyed does not open (shredded).
   */
  async function scanDatabase(markers: readonly string[]): Promise<{ clear: Finding[]; sealed: Finding[] }> {
    const tables: Array<{ table_name: string }> = await db.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const clear: Finding[] = [];
    const sealed: Finding[] = [];
    const note = (list: Finding[], place: string, texts: readonly string[]) => {
      for (const marker of markers) if (texts.some((text) => text.includes(marker))) list.push({ place, marker });
    };
    for (const { table_name: table } of tables) {
      const rows: Array<Record<string, unknown>> = await db.query(`SELECT * FROM "${table}"`);
      for (const row of rows) {
        const rowId = String(row.id ?? row.hash ?? '');
        const accountId = (row.account_id as string | null | undefined) ?? null;
        for (const [column, value] of Object.entries(row)) {
          if (value === null || value === undefined) continue;
          const place = `${table}.${column}`;
          const context = { table, column, rowId, accountId };
          if (Buffer.isBuffer(value)) {
            note(clear, place, textsOfBytes(value));
            if (isSealed(value)) {
              const opened = await cipher.openBytes(context, value).catch(() => null);
              if (opened) note(sealed, place, textsOfBytes(opened));
            }
            continue;
          }
          const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
          note(clear, place, [text]);
          if (typeof value === 'string' && value.startsWith(TEXT_PREFIX)) {
            const opened = await cipher.openText(context, value).catch(() => null);
            if (opened !== null) note(sealed, place, [opened]);
          }
        }
      }
    }
    return { clear, sealed };
  }

  /** Every key under the deployment's prefix (jobs, event streams, caches, sessions, rate limits), with its value whatever its type. */
  async function redisEntries(): Promise<Array<{ key: string; type: string; value: string }>> {
    const client = (await queues.preview.getBackend().client) as unknown as RedisClient;
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${config.queue.prefix}:*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    const entries: Array<{ key: string; type: string; value: string }> = [];
    for (const key of keys) {
      const type = await client.type(key);
      const value =
        type === 'string'
          ? await client.get(key)
          : type === 'hash'
            ? await client.hgetall(key)
            : type === 'list'
              ? await client.lrange(key, 0, -1)
              : type === 'set'
                ? await client.smembers(key)
                : type === 'zset'
                  ? await client.zrange(key, 0, -1, 'WITHSCORES')
                  : type === 'stream'
                    ? await client.xrange(key, '-', '+')
                    : type;
      entries.push({ key, type, value: JSON.stringify(value) });
    }
    return entries;
  }

  const inRedis = async (marker: string) =>
    (await redisEntries()).filter(({ key, value }) => key.includes(marker) || value.includes(marker)).map(({ key }) => key);

  const exportOf = async (key: string) => (await request(api.url).get('/api/account/export').set('Authorization', `Bearer ${key}`).expect(200)).text;

  it('keeps the text and every URL sealed while kept: no column, Redis key or cache entry holds them in clear; the API and the export read them', async () => {
    const marker = newMarker('kept');
    const account = await accountWithWebhook();
    const { previewId, screenshots, runId } = await driveEmail(account.key, marker);
    expect(Object.keys(screenshots).length).toBeGreaterThan(0);

    const { clear, sealed } = await scanDatabase([marker]);
    expect(clear).toEqual([]);
    // Where the marker is, sealed: the source, the result, the gate's summary, the run's links and verdict, the event's payload.
    expect(sealed.map((finding) => finding.place)).toEqual(
      expect.arrayContaining(['previews.source', 'previews.result', 'previews.gate_summary', 'gate_runs.links', 'gate_runs.verdict', 'webhook_events.payload']),
    );

    // Screenshots: sealed with the account's key, named by a hash keyed with it, served opened.
    const images: Array<{ hash: string; png: Buffer; account_id: string; sealed: boolean }> = await db.query(
      'SELECT i.hash, i.png, i.account_id, i.sealed FROM screenshot_images i JOIN preview_screenshots s ON s.hash = i.hash WHERE s.preview_id = $1',
      [previewId],
    );
    expect(images.length).toBeGreaterThan(0);
    const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    for (const image of images) {
      expect(image).toMatchObject({ account_id: account.accountId, sealed: true });
      expect(isSealed(image.png)).toBe(true);
      expect(image.png.includes(PNG_SIGNATURE)).toBe(false);
      const served = await request(api.url).get(`/screenshots/${image.hash}.png`).buffer(true).expect(200);
      expect((served.body as Buffer).subarray(0, 4)).toEqual(PNG_SIGNATURE);
    }

    // The link-check cache: a keyed hash of each URL (43 base64url characters), the status only. (The link-check queue's keys share the prefix.)
    const cache = (await redisEntries()).filter(
      ({ key, type }) => type === 'string' && /^[A-Za-z0-9_-]{43}$/.test(key.slice(`${config.queue.prefix}:link-check:`.length)),
    );
    expect(cache.length).toBeGreaterThanOrEqual(3);
    for (const { value } of cache) expect(JSON.parse(value)).toMatch(/^\{"status":\d{3}\}$/);
    expect(await inRedis(marker)).toEqual([]);

    // Read back through the service: the run's verdict and the export (with the screenshots' PNGs) hold it, opened.
    const run = await request(api.url).get(`/api/gate/runs/${runId}`).set('Authorization', `Bearer ${account.key}`).expect(200);
    expect(JSON.stringify(run.body)).toContain(`${siteUrl}/missing/${marker}`);
    const exported = JSON.parse(await exportOf(account.key)) as { screenshots: Array<{ png: string }>; webhookEvents: unknown[]; gateRuns: unknown[] };
    expect(JSON.stringify(exported.webhookEvents)).toContain(marker);
    expect(JSON.stringify(exported.gateRuns)).toContain(marker);
    expect(exported.screenshots.length).toBe(images.length);
    for (const shot of exported.screenshots) expect(Buffer.from(shot.png, 'base64').subarray(0, 4)).toEqual(PNG_SIGNATURE);
  }, 180_000);

  it('past the retention, nothing the service can read back holds the text or a URL: columns opened, Redis, the run, the export', async () => {
    const marker = newMarker('purged');
    const account = await accountWithWebhook();
    const { runId } = await driveEmail(account.key, marker);
    expect((await scanDatabase([marker])).sealed.length).toBeGreaterThan(0);
    await db.query('UPDATE accounts SET retention_days = 1 WHERE id = $1', [account.accountId]);
    for (const table of ['previews', 'gate_runs', 'webhook_events']) {
      await db.query(`UPDATE ${table} SET created_at = created_at - interval '2 days' WHERE account_id = $1`, [account.accountId]);
    }
    const swept = await api.app.get(RetentionRepository).sweep();
    expect(swept.previewsPurged).toBeGreaterThanOrEqual(2);

    expect(await scanDatabase([marker])).toEqual({ clear: [], sealed: [] });
    expect(await inRedis(marker)).toEqual([]);
    expect(await exportOf(account.key)).not.toContain(marker);
    const run = await request(api.url).get(`/api/gate/runs/${runId}`).set('Authorization', `Bearer ${account.key}`).expect(200);
    expect(run.body).toMatchObject({
      status: 'completed',
      verdict: { passed: false, failures: expect.arrayContaining([expect.objectContaining({ check: 'link-unreachable', url: '' })]) },
    });
    expect(JSON.stringify(run.body)).not.toContain(marker);
  }, 180_000);

  it('retain: false keeps nothing of the text or its URLs once the chain is done, the webhook event included', async () => {
    const marker = newMarker('unretained');
    const account = await accountWithWebhook();
    const { previewId, runId } = await driveEmail(account.key, marker, { retain: false });
    const removed = async () =>
      (
        (await db.query('SELECT count(*)::int AS n FROM previews WHERE account_id = $1 AND content_removed_at IS NULL', [account.accountId])) as Array<{
          n: number;
        }>
      )[0].n === 0;
    // The gate's chain ends with its answer; the preview's (with its screenshots) once they are painted, or at the next sweep.
    await waitFor(removed, 'retain: false to remove both emails', 60_000).catch(async () => {
      await api.app.get(RetentionRepository).sweep();
      expect(await removed()).toBe(true);
    });
    // gate.failed is recorded once the run's suggested fix is settled (a follow-up job, docs/gate.md), which may come
    // after the purge: the event must still carry none of the email's URLs.
    await waitFor(
      async () =>
        ((await db.query('SELECT suggested_fix_pending FROM gate_runs WHERE id = $1', [runId])) as Array<{ suggested_fix_pending: boolean }>)[0]
          .suggested_fix_pending === false,
      'the suggested fix to settle',
      60_000,
    );
    const [event]: Array<{ n: number }> = await db.query('SELECT count(*)::int AS n FROM webhook_events WHERE account_id = $1', [account.accountId]);
    expect(event.n).toBe(1);

    expect(await scanDatabase([marker])).toEqual({ clear: [], sealed: [] });
    expect(await inRedis(marker)).toEqual([]);
    const exported = await exportOf(account.key);
    expect(exported).toContain(runId);
    expect(exported).toContain(previewId);
    expect(exported).not.toContain(marker);
  }, 180_000);

  it('an erasure leaves nothing of the text, its URLs or its screenshots: every column, every Redis key', async () => {
    const marker = newMarker('erased');
    const account = await accountWithWebhook();
    await driveEmail(account.key, marker);
    const images: Array<{ hash: string }> = await db.query('SELECT hash FROM screenshot_images WHERE account_id = $1', [account.accountId]);
    expect(images.length).toBeGreaterThan(0);
    expect((await scanDatabase([marker])).sealed.length).toBeGreaterThan(0);

    await request(api.url).delete('/api/account').set('Authorization', `Bearer ${account.key}`).set('Mailproof-Confirm', 'delete').expect(200);

    expect(await scanDatabase([marker])).toEqual({ clear: [], sealed: [] });
    expect(await db.query('SELECT hash FROM screenshot_images WHERE hash = ANY($1)', [images.map((image) => image.hash)])).toEqual([]);
    expect(await inRedis(marker)).toEqual([]);
    await request(api.url).get('/api/account/export').set('Authorization', `Bearer ${account.key}`).expect(401);
  }, 180_000);
});
