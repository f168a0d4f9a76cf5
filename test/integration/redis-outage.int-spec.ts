import { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { redisOptionsFromUrl } from '@mailproof/queue';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { freePort } from '../utils/free-port';
import { TestRedisServer } from '../utils/redis-server';
import { testConfig } from '../utils/test-config';
import { sleep, waitFor } from '../utils/wait';

// The API and a worker-preview run as real built processes against a Redis this test starts on a
// port of its own, so it can refuse connections (stopped) or accept them and never answer (SIGSTOP).
// During either outage every request must be answered within the client's 3 s timeout; afterwards
// readiness comes back and the previews queued just before the outage are all analyzed.
const CLIENT_TIMEOUT_MS = 3_000;
const EMAIL = '<!doctype html><html lang="en"><head><title>Outage</title></head><body><p>Queued before the outage.</p></body></html>';

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  ms: number;
}

describe('a Redis outage: requests answer at once, queued jobs survive', () => {
  let redis: TestRedisServer;
  let api: AppProcess;
  let worker: AppProcess;
  let apiUrl: string;
  let db: DataSource;
  let previewQueue: Queue;
  let key: string;
  const slowest: Record<string, { ms: number; request: string }> = {};
  const readyAgainAfterMs: Record<string, number> = {};

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const started = Date.now();
    let res: Response;
    try {
      res = await fetch(apiUrl + path, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`${method} ${path} got no answer within ${CLIENT_TIMEOUT_MS} ms (${error instanceof Error ? error.message : String(error)})`, {
        cause: error,
      });
    }
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, ms: Date.now() - started };
  };

  const readiness = () => call('GET', '/health/ready');
  const redisUp = async () => {
    const res = await readiness();
    const details = res.body.details as Record<string, { status: string }> | undefined;
    return details?.redis?.status === 'up' && details['queue:preview']?.status === 'up';
  };

  /** Pauses the queue and posts previews that the API stores and enqueues but no worker takes yet. */
  const queueUnprocessedPreviews = async (count: number): Promise<string[]> => {
    await previewQueue.pause();
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => call('POST', '/api/preview', { html: EMAIL.replace('Queued', `Queued #${i}`) })));
    for (const answer of answers) expect(answer).toMatchObject({ status: 503, body: { code: 'service_unavailable', id: expect.stringMatching(/^prv_/) } });
    const ids = answers.map((answer) => answer.body.id as string);
    const [{ queued }] = await db.query("SELECT count(*)::int AS queued FROM previews WHERE id = ANY($1) AND status = 'queued'", [ids]);
    expect(queued).toBe(count);
    return ids;
  };

  /** Every kind of request, all at once, a few times over the outage; each must be answered in time. */
  const probeDuringOutage = async (kind: string, marker: string) => {
    const auth = { authorization: `Bearer ${key}` };
    const since = new Date(Date.now() - 1_000);
    for (let round = 0; round < 3; round++) {
      const [clients, preview, audit, domain, ready] = await Promise.all([
        call('GET', '/api/clients'),
        call('POST', '/api/preview', { html: `<p>${marker}</p>` }),
        call('POST', '/api/deliverability', { domain: 'example.com' }, auth),
        call('POST', '/api/domains', { domain: `${marker}-${round}.example` }, auth),
        readiness(),
      ]);
      expect(clients.status).toBe(200);
      expect(clients.headers.get('ratelimit-limit')).toBeTruthy();
      for (const queued of [preview, audit, domain]) {
        expect(queued.status).toBe(503);
        expect(queued.body.code).toBe('service_unavailable');
        expect(queued.headers.get('content-type')).toMatch(/application\/problem\+json/);
        expect(Number(queued.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
      // Nothing the refused work created is kept: no preview id to poll, no half-added domain.
      expect(preview.body.id).toBeUndefined();
      expect(ready.status).toBe(503);
      expect(ready.body.details).toMatchObject({ redis: { status: 'down' } });
      const named = {
        'GET /api/clients': clients,
        'POST /api/preview': preview,
        'POST /api/deliverability': audit,
        'POST /api/domains': domain,
        'GET /health/ready': ready,
      };
      for (const [request, answer] of Object.entries(named)) {
        if (answer.ms > (slowest[kind]?.ms ?? -1)) slowest[kind] = { ms: answer.ms, request };
      }
      await sleep(700);
    }
    // Sources are sealed (docs/privacy.md): each preview of the probe's time is opened to look for the marker.
    const cipher = testRowCipher(db, testConfig());
    const rows: Array<{ id: string; accountId: string | null; source: string }> = await db.query(
      'SELECT id, account_id AS "accountId", source FROM previews WHERE created_at >= $1',
      [since],
    );
    const sources = await Promise.all(
      rows.map((row) => cipher.openText({ table: 'previews', column: 'source', rowId: row.id, accountId: row.accountId }, row.source)),
    );
    expect(sources.filter((source) => source.includes(marker))).toEqual([]);
    const domains = await call('GET', '/api/domains', undefined, auth);
    expect((domains.body.domains as Array<{ domain: string }>).filter((d) => d.domain.startsWith(marker))).toEqual([]);
  };

  /** After the outage: readiness is back, the API queues work again and every preview from before is analyzed. */
  const recoverAndDrain = async (kind: string, ids: string[]) => {
    const back = Date.now();
    await waitFor(redisUp, 'readiness to report Redis and the preview worker up again', 30_000, 100);
    readyAgainAfterMs[kind] = Date.now() - back;
    await previewQueue.resume();
    await waitFor(
      async () => {
        const [{ done }] = await db.query("SELECT count(*)::int AS done FROM previews WHERE id = ANY($1) AND status = 'completed'", [ids]);
        return done === ids.length;
      },
      `all ${ids.length} previews queued before the outage to be analyzed`,
      60_000,
      250,
    );
    for (const id of ids) expect((await call('GET', `/api/preview/${id}`)).status).toBe(200);
    expect(await previewQueue.getFailedCount()).toBe(0);
    const fresh = await call('POST', '/api/preview', { html: EMAIL });
    expect(fresh.status).toBe(200);
  };

  beforeAll(async () => {
    redis = await TestRedisServer.start({ persistent: true });
    const config = testConfig({ REDIS_URL: redis.url });
    db = await openDatabase(config);
    key = (await createTestAccount(db, 'pro')).key;
    previewQueue = new Queue('preview', { connection: redisOptionsFromUrl(redis.url), prefix: config.queue.prefix });
    // The test's own handle lives through the outages too: its connection errors are expected.
    previewQueue.on('error', () => undefined);
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    const env = {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: config.queue.prefix,
      MIGRATE_ON_START: 'false',
      PREVIEW_BUDGET_MS: '2000',
      DELIVERABILITY_BUDGET_MS: '2000',
    };
    api = startAppProcess('api', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    worker = startAppProcess('worker-preview', { ...env, WORKER_PREVIEW_THREADS: 'false' });
    await waitFor(redisUp, 'the API to report Redis and a preview worker up', 60_000, 200);
  }, 90_000);

  afterEach(async () => {
    await redis.ensureRunning();
  });

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.stop('SIGKILL');
    await previewQueue?.obliterate({ force: true }).catch(() => undefined);
    await previewQueue?.close();
    await db?.destroy();
    await redis?.destroy();
    // Measured, not asserted (the assertion is the client timeout): the slowest answer per outage.
    console.log(`slowest answers during the outage: ${JSON.stringify(slowest)}; readiness up again after (ms): ${JSON.stringify(readyAgainAfterMs)}`);
  });

  it('answers every request within 3 s while Redis refuses connections, and loses no queued job', async () => {
    const ids = await queueUnprocessedPreviews(3);
    await redis.stop();
    expect(await redis.ping()).toBe(false);
    await probeDuringOutage('refused', `refused-${Date.now()}`);
    await redis.resume();
    await recoverAndDrain('refused', ids);
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  }, 120_000);

  it('answers every request within 3 s while Redis is frozen (SIGSTOP), and loses no queued job', async () => {
    const ids = await queueUnprocessedPreviews(3);
    redis.freeze();
    expect(await redis.ping()).toBe(false);
    await probeDuringOutage('frozen', `frozen-${Date.now()}`);
    redis.thaw();
    await recoverAndDrain('frozen', ids);
    expect(api.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();
  }, 120_000);
});
