import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { migrateDatabase, WebhookRepository } from '@mailproof/persistence';
import { startScheduler } from '../../apps/scheduler/src/start-scheduler';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { healthyDomain, rsaDkimKey } from '../utils/dns-fixture-zones';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { UnboundServer } from '../utils/unbound-server';
import { sleep, waitFor } from '../utils/wait';

/**
 * Webhooks end to end: the API in-process, worker-dns as a real process delivering to a loopback
 * receiver that only this suite allow-lists (SSRF_ALLOWED_ADDRESSES, refused in production), real
 * PostgreSQL, Redis and BullMQ, and for drift a real DNS server (unbound) and the scheduler.
 */
interface Receipt {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('webhooks', () => {
  let unbound: UnboundServer;
  let config: ReturnType<typeof testConfig>;
  let env: Record<string, string>;
  let queues: ReturnType<typeof openQueues>;
  let db: DataSource;
  let api: RunningApi;
  let worker: AppProcess;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let receiver: http.Server;
  let base = '';
  const receipts: Receipt[] = [];
  /** Requests seen per path, to answer the first ones differently. */
  const seen = new Map<string, number>();
  /** Called when a request arrives on /kill (the kill -9 test sets it). */
  let onKillPath: (() => void) | undefined;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += String(chunk)));
      req.on('end', () => {
        const path = req.url ?? '/';
        const count = (seen.get(path) ?? 0) + 1;
        seen.set(path, count);
        receipts.push({ path, headers: req.headers, body });
        if (path === '/flaky' && count <= 2) return void res.writeHead(500).end('not yet');
        if (path === '/slow-once' && count === 1) return void setTimeout(() => res.writeHead(200).end(), 4_000);
        if (path === '/down') return void res.writeHead(503).end('down for good');
        if (path === '/redirect') return void res.writeHead(302, { location: `${base}/ok` }).end();
        if (path === '/kill' && count === 1) return void onKillPath?.();
        res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    unbound = await UnboundServer.start({
      records: healthyDomain('hooked.test', rsaDkimKey(2048), {
        'hooked.test': { MX: [{ exchange: 'mx1.hooked.test', priority: 10 }], TXT: ['v=spf1 mx -all'], ttl: 1 },
        '_dmarc.hooked.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:r@hooked.test'], ttl: 1 },
      }),
      silentZones: [],
    });
    env = {
      SSRF_ALLOWED_ADDRESSES: '127.0.0.1',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_ATTEMPTS: '4',
      WEBHOOK_BACKOFF_MS: '200',
      WEBHOOK_DISABLE_AFTER: '2',
      // Every test adds endpoints to one account.
      WEBHOOK_ENDPOINT_LIMIT: '40',
      WORKER_LOCK_DURATION_MS: '3000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      DNS_SERVERS: unbound.dohServer,
      DNS_PROTOCOL: 'http',
      // Generous: a lookup timing out on a busy machine would read as drift.
      DNS_TIMEOUT_MS: '2000',
      DNS_TRIES: '2',
      DOMAIN_AUDIT_INTERVAL: '2s',
      WEBHOOK_RELAY_EVERY_SECONDS: '1',
      MIGRATE_ON_START: 'false',
    };
    config = testConfig(env);
    env.QUEUE_PREFIX = config.queue.prefix;
    queues = openQueues(config);
    await migrateDatabase(config.database.url);
    db = await openDatabase(config);
    api = await startTestApi(config);
    worker = await startWorkerDns(env);
    ({ key, accountId } = await createTestAccount(db, 'pro'));
    otherKey = (await createTestAccount(db, 'free')).key;
  }, 60_000);

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.close();
    await queues?.closeAll();
    await db?.destroy();
    await unbound?.stop();
    await new Promise((resolve) => receiver.close(resolve));
  });

  async function startWorkerDns(extra: Record<string, string>): Promise<AppProcess> {
    const started = startAppProcess('worker-dns', extra);
    await waitFor(async () => (await queues.webhook.getWorkers()).length >= 1, 'worker-dns to consume the webhook queue', 30_000);
    return started;
  }

  const auth = (key_: string) => ({ Authorization: `Bearer ${key_}` });
  const createEndpoint = (body: unknown, key_ = key) =>
    request(api.url)
      .post('/api/webhooks')
      .set(auth(key_))
      .send(body as object);

  async function endpoint(path: string, events = ['domain.drift']): Promise<{ id: string; secret: string }> {
    const res = await createEndpoint({ url: `${base}${path}`, events });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function sendTest(id: string): Promise<string> {
    const res = await request(api.url).post(`/api/webhooks/${id}/test`).set(auth(key));
    expect(res.status).toBe(202);
    return res.body.deliveryId;
  }

  async function deliveryOf(endpointId: string, deliveryId: string, settled = true, timeoutMs = 20_000) {
    return waitFor(
      async () => {
        const res = await request(api.url).get(`/api/webhooks/${endpointId}/deliveries`).set(auth(key));
        const delivery = res.body.deliveries.find((item: { id: string }) => item.id === deliveryId);
        return delivery && (!settled || delivery.status !== 'pending') ? delivery : null;
      },
      `delivery ${deliveryId}`,
      timeoutMs,
    );
  }

  const verify = (secret: string, receipt: Receipt) =>
    new Webhook(secret).verify(receipt.body, {
      'webhook-id': String(receipt.headers['webhook-id']),
      'webhook-timestamp': String(receipt.headers['webhook-timestamp']),
      'webhook-signature': String(receipt.headers['webhook-signature']),
    });

  describe('bad input', () => {
    it.each<[string, unknown, number, string, string | null]>([
      ['not a URL', { url: 'hooks example', events: ['domain.drift'] }, 400, 'validation_failed', 'url'],
      ['an ftp URL', { url: 'ftp://hooks.example.com/in', events: ['domain.drift'] }, 400, 'url_declined', 'url'],
      ['a private address', { url: 'http://10.1.2.3/in', events: ['domain.drift'] }, 400, 'url_declined', 'url'],
      ['the metadata address', { url: 'http://169.254.169.254/latest', events: ['domain.drift'] }, 400, 'url_declined', 'url'],
      ['localhost', { url: 'http://localhost/in', events: ['domain.drift'] }, 400, 'url_declined', 'url'],
      ['a port other than 80/443', { url: 'https://hooks.example.com:8443/in', events: ['domain.drift'] }, 400, 'url_declined', 'url'],
      ['credentials in the URL', { url: 'https://user:pw@hooks.example.com/in', events: ['domain.drift'] }, 400, 'url_declined', 'url'],
      ['an unknown event', { url: 'https://hooks.example.com/in', events: ['domain.drift', 'preview.created'] }, 400, 'validation_failed', 'events'],
      ['no events', { url: 'https://hooks.example.com/in', events: [] }, 400, 'validation_failed', 'events'],
      ['events missing', { url: 'https://hooks.example.com/in' }, 400, 'validation_failed', 'events'],
      ['an unknown field', { url: 'https://hooks.example.com/in', events: ['gate.failed'], secret: 'mine' }, 400, 'validation_failed', 'secret'],
      ['a URL over 2,000 characters', { url: `https://hooks.example.com/${'a'.repeat(2_000)}`, events: ['gate.failed'] }, 400, 'validation_failed', 'url'],
      [
        'a body over the 2 MB limit',
        { url: 'https://hooks.example.com/in', events: ['gate.failed'], pad: 'x'.repeat(2_200_000) },
        413,
        'payload_too_large',
        null,
      ],
    ])('%s: problem+json with the documented status and code', async (_name, body, status, code, field) => {
      const res = await createEndpoint(body);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe(code);
      if (field) expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('refuses an endpoint past WEBHOOK_ENDPOINT_LIMIT with 403 forbidden and the limit', async () => {
      const { key: fresh } = await createTestAccount(db, 'free');
      const limit = config.webhooks.endpointLimit;
      for (let i = 0; i < limit; i++)
        expect((await createEndpoint({ url: `https://hooks.mailproof.invalid/${i}`, events: ['gate.failed'] }, fresh)).status).toBe(201);
      const refused = await createEndpoint({ url: 'https://hooks.mailproof.invalid/one-more', events: ['gate.failed'] }, fresh);
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(refused.body).toMatchObject({ code: 'forbidden', limit });
      expect((await request(api.url).get('/api/webhooks').set(auth(fresh))).body.webhooks).toHaveLength(limit);
    });

    it("needs a key on every route (401), and another account's endpoint is 404", async () => {
      const created = await endpoint('/ok');
      for (const res of [
        await request(api.url)
          .post('/api/webhooks')
          .send({ url: 'https://hooks.example.com/in', events: ['gate.failed'] }),
        await request(api.url).get('/api/webhooks'),
        await request(api.url).delete(`/api/webhooks/${created.id}`),
        await request(api.url).post(`/api/webhooks/${created.id}/test`),
      ]) {
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      }
      for (const res of [
        await request(api.url).get(`/api/webhooks/${created.id}`).set(auth(otherKey)),
        await request(api.url).get(`/api/webhooks/${created.id}/deliveries`).set(auth(otherKey)),
        await request(api.url).post(`/api/webhooks/${created.id}/test`).set(auth(otherKey)),
        await request(api.url).delete(`/api/webhooks/${created.id}`).set(auth(otherKey)),
        await request(api.url).get('/api/webhooks/not-a-uuid').set(auth(key)),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
      expect((await request(api.url).delete(`/api/webhooks/${created.id}`).set(auth(key))).status).toBe(204);
    });
  });

  it('shows the whsec_ secret once and signs a test event as Standard Webhooks says', async () => {
    const created = await createEndpoint({ url: `${base}/ok`, events: ['gate.failed', 'domain.drift'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: `${base}/ok`, events: ['gate.failed', 'domain.drift'], status: 'enabled', disabledReason: null });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await request(api.url).get('/api/webhooks').set(auth(key));
    const listed = list.body.webhooks.find((item: { id: string }) => item.id === created.body.id);
    expect(listed).toBeDefined();
    expect(listed.secret).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);

    const deliveryId = await sendTest(created.body.id);
    const delivery = await deliveryOf(created.body.id, deliveryId);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200, lastError: null, eventType: 'webhook.test' });
    const receipt = receipts.find((item) => item.headers['webhook-id'] === delivery.eventId);
    expect(receipt).toBeDefined();
    expect(receipt!.headers['content-type']).toBe('application/json');
    expect(receipt!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verify(created.body.secret, receipt!)).toMatchObject({ type: 'webhook.test', data: { endpointId: created.body.id } });
    // A different secret, or a body changed by one character, does not verify.
    expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, receipt!)).toThrow();
    expect(() => verify(created.body.secret, { ...receipt!, body: receipt!.body.replace('test', 'tesT') })).toThrow();
  });

  it('retries after 500s with the same webhook-id and logs the attempts', async () => {
    const created = await endpoint('/flaky');
    const deliveryId = await sendTest(created.id);
    const delivery = await deliveryOf(created.id, deliveryId);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatus: 200 });
    const tries = receipts.filter((item) => item.path === '/flaky');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((item) => item.headers['webhook-id']))).toEqual(new Set([delivery.eventId]));
    for (const attempt of tries) expect(verify(created.secret, attempt)).toMatchObject({ type: 'webhook.test' });
  });

  it('retries after a timeout', async () => {
    const created = await endpoint('/slow-once');
    const deliveryId = await sendTest(created.id);
    const delivery = await deliveryOf(created.id, deliveryId);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 200 });
    expect(receipts.filter((item) => item.path === '/slow-once')).toHaveLength(2);
  });

  it('follows no redirect, and disables an endpoint that keeps failing with the reason shown', async () => {
    const redirected = await endpoint('/redirect');
    const okBefore = receipts.filter((item) => item.path === '/ok').length;
    const failedRedirect = await deliveryOf(redirected.id, await sendTest(redirected.id));
    expect(failedRedirect).toMatchObject({ status: 'failed', attempts: 4, lastStatus: 302 });
    expect(failedRedirect.lastError).toMatch(/HTTP 302 to .*\/ok \(redirects are not followed\)/);
    expect(receipts.filter((item) => item.path === '/ok').length).toBe(okBefore);

    const down = await endpoint('/down');
    const first = await deliveryOf(down.id, await sendTest(down.id));
    expect(first).toMatchObject({ status: 'failed', attempts: 4, lastStatus: 503 });
    expect(first.lastError).toContain('down for good');
    let shown = await request(api.url).get(`/api/webhooks/${down.id}`).set(auth(key));
    expect(shown.body).toMatchObject({ status: 'enabled', consecutiveFailures: 1 });
    await deliveryOf(down.id, await sendTest(down.id));
    shown = await request(api.url).get(`/api/webhooks/${down.id}`).set(auth(key));
    expect(shown.body.status).toBe('disabled');
    expect(shown.body.disabledReason).toMatch(/2 deliveries in a row failed on every attempt; last error: HTTP 503/);
    // A disabled endpoint takes no test event until it is enabled again.
    const refused = await request(api.url).post(`/api/webhooks/${down.id}/test`).set(auth(key));
    expect(refused.status).toBe(409);
    expect(refused.headers['content-type']).toMatch(/application\/problem\+json/);
    const enabled = await request(api.url).post(`/api/webhooks/${down.id}/enable`).set(auth(key));
    expect(enabled.body).toMatchObject({ status: 'enabled', disabledReason: null, consecutiveFailures: 0 });
  });

  it('delivers nothing to a private address with production settings', async () => {
    const created = await endpoint('/ok');
    const okBefore = receipts.filter((item) => item.path === '/ok').length;
    await worker.stop('SIGTERM');
    await waitFor(async () => (await queues.webhook.getWorkers()).length === 0, 'the test worker to stop', 20_000);
    const production = await startWorkerDns({
      NODE_ENV: 'production',
      QUEUE_PREFIX: config.queue.prefix,
      DATABASE_URL: config.database.url,
      REDIS_URL: config.redis.url,
      PUBLIC_BASE_URL: 'https://mailproof.example.com',
      SSRF_ALLOWED_ADDRESSES: '',
      MIGRATE_ON_START: 'false',
      WEBHOOK_ATTEMPTS: '4',
      WEBHOOK_BACKOFF_MS: '200',
    });
    try {
      const delivery = await deliveryOf(created.id, await sendTest(created.id));
      // Refused by the guard before connecting, and not retried: nothing will change about the address.
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatus: null });
      expect(delivery.lastError).toMatch(/^declined: 127\.0\.0\.1 is not a public address/);
      expect(receipts.filter((item) => item.path === '/ok').length).toBe(okBefore);
    } finally {
      await production.stop('SIGTERM');
      worker = await startWorkerDns(env);
    }
  }, 120_000);

  it('loses no event when the delivering worker is killed with SIGKILL', async () => {
    const created = await endpoint('/kill');
    const killed = new Promise<void>((resolve) => {
      onKillPath = () => {
        worker.child.kill('SIGKILL');
        resolve();
      };
    });
    const deliveryId = await sendTest(created.id);
    await killed;
    await worker.exited;
    worker = await startWorkerDns(env);
    // The job's lock expires and the new worker takes it again (stalled-job check).
    const delivery = await deliveryOf(created.id, deliveryId, true, 60_000);
    expect(delivery.status).toBe('delivered');
    // The killed attempt and at least one more (a busy machine may time one out), all of the one event.
    const tries = receipts.filter((item) => item.path === '/kill');
    expect(tries.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tries.map((item) => item.headers['webhook-id']))).toEqual(new Set([delivery.eventId]));
    const rows = await db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [created.id]);
    expect(rows[0].n).toBe(1);
  }, 120_000);

  it("sends deliveries whose producer died before queueing them: the scheduler's relay queues them", async () => {
    const created = await endpoint('/relayed', ['gate.failed']);
    // What a worker leaves behind when it dies between its commit and the enqueue: rows, no job.
    const [deliveryId] = await new WebhookRepository(db, testRowCipher(db, config)).recordEventNow(
      {
        accountId,
        type: 'gate.failed',
        sourceKey: `gate.failed/relay-test-${Date.now()}`,
        occurredAt: new Date(),
        data: { runId: 'gtr_relay', ref: null, previewId: null, passed: false, overallScore: 0, worstClient: null, failures: [] },
      },
      created.id,
    );
    expect(await queues.webhook.getJob(`webhook.deliver-${deliveryId}`)).toBeUndefined();
    const scheduler = await startScheduler(config);
    try {
      const delivery = await deliveryOf(created.id, deliveryId);
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, eventType: 'gate.failed' });
    } finally {
      await scheduler.close();
    }
    const got = receipts.filter((item) => item.path === '/relayed');
    expect(got).toHaveLength(1);
    expect(verify(created.secret, got[0])).toMatchObject({ type: 'gate.failed', data: { runId: 'gtr_relay' } });
  });

  it('turns a drift the scheduler records into exactly one domain.drift delivery per endpoint', async () => {
    const both = await endpoint('/drift-a', ['domain.drift', 'domain.status_changed']);
    const driftOnly = await endpoint('/drift-b', ['domain.drift']);
    const gateOnly = await endpoint('/drift-c', ['gate.failed']);
    const added = await request(api.url).post('/api/domains').set(auth(key)).send({ domain: 'hooked.test' });
    expect(added.status).toBe(201);
    const domainId = added.body.id as string;
    // The first audit moves the domain from pending to healthy: a status change, no drift.
    const firstStatus = await waitFor(
      () => receipts.find((item) => item.path === '/drift-a' && JSON.parse(item.body).type === 'domain.status_changed'),
      'the status change',
    );
    expect(verify(both.secret, firstStatus)).toMatchObject({
      data: { domainId, domain: 'hooked.test', previousStatus: 'pending', status: 'healthy', score: 100 },
    });

    unbound.setRecords('_dmarc.hooked.test', { TXT: ['v=DMARC1; p=none; rua=mailto:r@hooked.test'], ttl: 1 });
    await sleep(1_100); // the record's TTL: the DNS cache must let the change through
    const scheduler: INestApplicationContext = await startScheduler(config);
    try {
      await waitFor(
        async () => {
          const rows = await db.query(`SELECT count(*)::int AS n FROM drift_events WHERE monitored_domain_id = $1`, [domainId]);
          return rows[0].n > 0;
        },
        'a drift recorded by the scheduler',
        20_000,
      );
      // Let later windows re-audit the unchanged domain: they find no new drift.
      const audits = await db.query(`SELECT count(*)::int AS n FROM domain_audits WHERE monitored_domain_id = $1`, [domainId]);
      await waitFor(
        async () => {
          const rows = await db.query(`SELECT count(*)::int AS n FROM domain_audits WHERE monitored_domain_id = $1`, [domainId]);
          return rows[0].n >= audits[0].n + 1;
        },
        'one more scheduled audit',
        20_000,
      );
    } finally {
      await scheduler.close();
    }
    const driftReceipts = (path: string) =>
      waitFor(() => {
        const found = receipts.filter((item) => item.path === path && JSON.parse(item.body).type === 'domain.drift');
        return found.length > 0 ? found : null;
      }, `the drift at ${path}`);
    const [atA, atB] = [await driftReceipts('/drift-a'), await driftReceipts('/drift-b')];
    expect(atA).toHaveLength(1);
    expect(atB).toHaveLength(1);
    expect(atA[0].headers['webhook-id']).toBe(atB[0].headers['webhook-id']);
    const payload = verify(driftOnly.secret, atB[0]) as { data: { domainId: string; changes: Array<{ kind: string; previous: unknown; current: unknown }> } };
    expect(payload.data.domainId).toBe(domainId);
    expect(payload.data.changes).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'dmarc_policy', previous: 'reject', current: 'none' })]));
    expect(receipts.filter((item) => item.path === '/drift-c')).toHaveLength(0);

    const perEndpoint: Array<{ endpoint_id: string; n: number }> = await db.query(
      `SELECT d.endpoint_id, count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE e.type = 'domain.drift' AND d.endpoint_id = ANY($1) GROUP BY 1`,
      [[both.id, driftOnly.id, gateOnly.id]],
    );
    expect(perEndpoint.sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id))).toEqual(
      [both.id, driftOnly.id].sort().map((id) => ({ endpoint_id: id, n: 1 })),
    );
  });
});
