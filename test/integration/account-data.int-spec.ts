import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { MAX_RETENTION_DAYS } from '@mailproof/contracts';
import {
  ACCOUNT_TABLES,
  AccountsRepository,
  FixRunRepository,
  GateRunRepository,
  NOT_ACCOUNT_DATA,
  PreviewRepository,
  RetentionRepository,
  opaqueId,
} from '@mailproof/persistence';
import { redisOptionsFromUrl, type RedisClient } from '@mailproof/queue';
import { PREVIEW_CLEANUP_SCHEDULER_ID } from '../../apps/scheduler/src/preview-cleanup.service';
import { startScheduler } from '../../apps/scheduler/src/start-scheduler';
import { DashboardSessionStore } from '../../apps/api/src/auth/dashboard-session.store';
import { createTestAccountRows } from '../utils/account-rows';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Every key of the test's Redis prefix on each client, with what it holds whatever its type (job hashes, event streams, lists, sets). */
async function redisKeysAndValues(clients: RedisClient[], prefix: string): Promise<Array<{ key: string; value: string }>> {
  const found: Array<{ key: string; value: string }> = [];
  for (const client of clients) {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    for (const key of keys) found.push({ key, value: JSON.stringify(await redisValue(client, key)) });
  }
  return found;
}

async function redisValue(client: RedisClient, key: string): Promise<unknown> {
  const type = await client.type(key);
  if (type === 'string') return client.get(key);
  if (type === 'hash') return client.hgetall(key);
  if (type === 'list') return client.lrange(key, 0, -1);
  if (type === 'set') return client.smembers(key);
  if (type === 'zset') return client.zrange(key, 0, -1);
  if (type === 'stream') return client.xrange(key, '-', '+');
  return type;
}

describe('account data: the catalogue, export, erasure and retention', () => {
  // A long key cache: the second replica must drop the erased account's key because it was told, not because its cache expired.
  // The rate limiter on its own Redis database (RATE_LIMIT_REDIS_URL): erasure must find its windows and markers there.
  const rateLimitUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  rateLimitUrl.pathname = '/7';
  const config = testConfig({ API_KEY_CACHE_TTL_MS: 5_000, RATE_LIMIT_REDIS_URL: rateLimitUrl.toString() });
  const queues = openQueues(config);
  const rateLimitRedis = new Redis(redisOptionsFromUrl(config.rateLimits.redis.url));
  let db: DataSource;
  let api: RunningApi;
  let otherApi: RunningApi;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
    otherApi = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await otherApi?.close();
    await queues.closeAll(true);
    rateLimitRedis.disconnect();
    await db?.destroy();
  });

  it('lists every table that holds an account data in the erasure and export lists (information_schema)', async () => {
    const withAccountId: Array<{ table_name: string }> = await db.query(
      `SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'account_id'`,
    );
    const references: Array<{ child: string; parent: string }> = await db.query(
      `SELECT DISTINCT tc.table_name AS child, ccu.table_name AS parent FROM information_schema.table_constraints tc
       JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema
       WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public'`,
    );
    const listed = new Set(ACCOUNT_TABLES.map((t) => t.table));
    const holding = new Set(['accounts', ...withAccountId.map((row) => row.table_name)]);
    // A table whose foreign key reaches a table of an account holds the account's data too (deliveries, usage, screenshots).
    for (let grew = true; grew;) {
      grew = false;
      for (const { child, parent } of references) {
        if (holding.has(parent) && !holding.has(child)) {
          holding.add(child);
          grew = true;
        }
      }
    }
    const missing = [...holding].filter((table) => !listed.has(table) && !(table in NOT_ACCOUNT_DATA));
    expect(missing).toEqual([]);
    const allTables: Array<{ table_name: string }> = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    const unknown = allTables.map((row) => row.table_name).filter((table) => !listed.has(table) && !(table in NOT_ACCOUNT_DATA));
    expect(unknown).toEqual([]);
    for (const table of listed) expect(allTables.map((row) => row.table_name)).toContain(table);
  });

  it('reads and changes the retention within the plan, and refuses what the plan does not allow', async () => {
    const free = await createTestAccount(db, 'free');
    const read = await request(api.url).get('/api/account').set(auth(free.key)).expect(200);
    expect(read.body).toMatchObject({ id: free.accountId, plan: 'free', retentionDays: 30, maxRetentionDays: 30 });
    const changed = await request(api.url).patch('/api/account').set(auth(free.key)).send({ retentionDays: 0 }).expect(200);
    expect(changed.body.retentionDays).toBe(0);
    const tooLong = await request(api.url).patch('/api/account').set(auth(free.key)).send({ retentionDays: 31 }).expect(403);
    expect(tooLong.body).toMatchObject({ code: 'plan_required', maxRetentionDays: 30 });
    for (const body of [{}, { retentionDays: 366 }, { retentionDays: -1 }, { retentionDays: 'ten' }, { retentionDays: 1.5 }]) {
      const bad = await request(api.url).patch('/api/account').set(auth(free.key)).send(body).expect(400);
      expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    await request(api.url).get('/api/account').expect(401);
    const pro = await createTestAccount(db, 'pro');
    await request(api.url).patch('/api/account').set(auth(pro.key)).send({ retentionDays: 365 }).expect(200);
    // Moving to a plan with a shorter maximum shortens the retention with it.
    await new AccountsRepository(db).setPlan(pro.accountId, 'free', MAX_RETENTION_DAYS.free);
    expect((await request(api.url).get('/api/account').set(auth(pro.key)).expect(200)).body).toMatchObject({ plan: 'free', retentionDays: 30 });
  });

  it('is described by the OpenAPI document: the routes, the retention bounds, the confirmation, every field of the answers, retain on the email routes', async () => {
    type Schema = { properties?: Record<string, Schema>; $ref?: string; minimum?: number; maximum?: number; type?: string };
    type Operation = {
      parameters?: Array<{ name: string; in: string }>;
      requestBody?: { content: Record<string, { schema: Schema }> };
      responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
    };
    const document = (await request(api.url).get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Schema> };
    };
    const schemaOf = (ref: string | undefined): Schema => document.components.schemas[String(ref).split('/').pop() as string];
    const account = document.paths['/api/account'];
    expect(Object.keys(account)).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
    expect(document.paths['/api/account/export'].get.responses['200']).toBeDefined();
    const patch = schemaOf(account.patch.requestBody?.content['application/json'].schema.$ref);
    expect(patch.properties?.retentionDays).toMatchObject({ minimum: 0, maximum: 365 });
    expect(Object.keys(account.patch.responses)).toEqual(expect.arrayContaining(['200', '400', '403']));
    const free = await createTestAccount(db, 'free');
    const answer = (await request(api.url).get('/api/account').set(auth(free.key)).expect(200)).body as object;
    const answerSchema = schemaOf(account.get.responses['200'].content?.['application/json'].schema.$ref);
    expect(Object.keys(answerSchema.properties ?? {}).sort()).toEqual(Object.keys(answer).sort());
    expect(account.delete.parameters?.map((parameter) => parameter.name)).toContain('Mailproof-Confirm');
    expect(Object.keys(schemaOf(account.delete.requestBody?.content['application/json'].schema.$ref).properties ?? {})).toEqual(['confirm']);
    expect(Object.keys(schemaOf(account.delete.responses['200'].content?.['application/json'].schema.$ref).properties ?? {}).sort()).toEqual([
      'erasureId',
      'rowCounts',
    ]);
    for (const path of ['/api/preview', '/api/gate', '/api/fix']) {
      const body = schemaOf(document.paths[path].post.requestBody?.content['application/json'].schema.$ref);
      expect({ path, retain: body.properties?.retain?.type }).toEqual({ path, retain: 'boolean' });
    }
  });

  it('exports everything stored, then erases every row and Redis key of the account; its key gets 401 at once on every replica', async () => {
    const account = await createTestAccount(db, 'pro');
    const rows = await createTestAccountRows(api.app, db, account);
    const sessions = api.app.get(DashboardSessionStore);
    const { sessionId } = await sessions.create(account.accountId, account.keyId);
    // Requests on both replicas: rate-limit windows, last-used markers, and a cached key on the second replica.
    await request(api.url).get('/api/keys').set(auth(account.key)).expect(200);
    await request(otherApi.url).get('/api/keys').set(auth(account.key)).expect(200);
    await queues.preview.add('preview.analyze', { schemaVersion: 1, previewId: rows.previewId }, { jobId: `preview.analyze-${rows.previewId}` });
    // An on-demand DNS audit (POST /api/deliverability): a random job id, the account only in its data.
    const audit = { schemaVersion: 1, trigger: 'on-demand', domain: 'erased.example', dkimSelectors: [], accountId: account.accountId };
    await queues['dns-audit'].add('dns-audit.run', audit, { jobId: randomUUID() });
    const allClients = async () => [(await queues.preview.getBackend().client) as unknown as RedisClient, rateLimitRedis];
    const accountKeys = async () =>
      (await redisKeysAndValues(await allClients(), config.queue.prefix)).filter(({ key, value }) =>
        [account.accountId, account.keyId, rows.previewId, rows.gateRunId, rows.fixRunId].some((id) => key.includes(id) || value.includes(id)),
      );
    const before = (await accountKeys()).map(({ key }) => key);
    // Seen before the erasure (so the check below can fail): the rate-limit window on the rate limiter's own database, the audit job's hash.
    expect(await rateLimitRedis.exists(`${config.queue.prefix}:rl:pro:account:${account.accountId}`)).toBe(1);
    expect(before.filter((key) => key.includes(':dns-audit:')).length).toBeGreaterThan(0);

    const exported = await request(api.url).get('/api/account/export').set(auth(account.key)).expect(200);
    expect(exported.headers['content-type']).toMatch(/application\/json/);
    const data = JSON.parse(exported.text) as Record<string, unknown>;
    for (const { exportedAs } of ACCOUNT_TABLES) if (exportedAs) expect(Object.keys(data)).toContain(exportedAs);
    expect(JSON.stringify(data.previews)).toContain(rows.marker);
    expect(JSON.stringify(data.fixRuns)).toContain(rows.marker);
    expect((data.gateBaselines as unknown[]).length).toBe(1);
    expect((data.webhookDeliveries as unknown[]).length).toBe(1);
    expect((data.driftEvents as unknown[]).length).toBe(1);
    expect((data.screenshots as unknown[]).length).toBe(1);
    expect(exported.text).not.toContain(rows.webhookSecret);
    expect(exported.text).not.toContain(account.key);
    expect(JSON.stringify(data.apiKeys)).not.toMatch(/key_?hash/i);

    const unconfirmed = await request(api.url).delete('/api/account').set(auth(account.key)).expect(400);
    expect(unconfirmed.body.code).toBe('validation_failed');
    expect(JSON.stringify(unconfirmed.body)).toContain('Mailproof-Confirm');
    await request(api.url).delete('/api/account').set(auth(account.key)).send({ confirm: 'yes' }).expect(400);
    await request(api.url).get('/api/account').set(auth(account.key)).expect(200);

    const erased = await request(api.url).delete('/api/account').set(auth(account.key)).set('Mailproof-Confirm', 'delete').expect(200);
    expect(erased.body.rowCounts).toMatchObject({ accounts: 1, previews: 1, gate_runs: 1, webhook_deliveries: 1, drift_events: 1, screenshot_images: 1 });
    await request(api.url).get('/api/account').set(auth(account.key)).expect(401);
    await request(otherApi.url).get('/api/account').set(auth(account.key)).expect(401);

    for (const { table, where } of ACCOUNT_TABLES) {
      const [{ n }]: Array<{ n: number }> = await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, [account.accountId]);
      expect({ table, n }).toEqual({ table, n: 0 });
    }
    const leftovers = await db.query(
      `SELECT 'audit' AS t FROM domain_audits WHERE domain = $1 UNION ALL SELECT 'image' FROM screenshot_images WHERE hash = $2
       UNION ALL SELECT 'event' FROM webhook_events WHERE id = $3`,
      [rows.domain, rows.imageHash, rows.eventId],
    );
    expect(leftovers).toEqual([]);
    const [record]: Array<Record<string, unknown>> = await db.query('SELECT * FROM account_erasures WHERE id = $1', [erased.body.erasureId]);
    expect(record.requested_by).toBe('api');
    expect(JSON.stringify(record)).not.toContain(account.accountId);
    expect(JSON.stringify(record)).not.toContain(account.keyId);

    expect(await sessions.find(sessionId)).toBeNull();
    expect(await accountKeys()).toEqual([]);
  });

  it('runs the sweep at least hourly: the configuration refuses a longer interval', () => {
    expect(() => testConfig({ PREVIEW_CLEANUP_EVERY_MINUTES: 61 })).toThrow(/PREVIEW_CLEANUP_EVERY_MINUTES/);
    expect(testConfig({ PREVIEW_CLEANUP_EVERY_MINUTES: 60 }).previews.cleanupEveryMinutes).toBe(60);
  });

  it('sweeps what is past its retention in one run and keeps what is inside it; findings and scores stay', async () => {
    const account = await createTestAccount(db, 'pro');
    await db.query('UPDATE accounts SET retention_days = 7 WHERE id = $1', [account.accountId]);
    const previews = api.app.get(PreviewRepository);
    const base = {
      accountId: account.accountId,
      title: 'kept title',
      format: 'html' as const,
      clients: ['gmail-web'],
      source: '<p>sweep me</p>',
      expiresAt: null,
    };
    const old = await previews.create(base);
    const recent = await previews.create(base);
    const notRetained = await previews.create({ ...base, retain: false });
    // A gate summary as the worker stores it: it names every link and image URL of the email.
    const summaryMarker = `summary-${randomBytes(6).toString('hex')}`;
    const summary = JSON.stringify({
      compatibilityScores: {},
      cssReport: [],
      linkReport: { links: [{ href: `https://shop.example/${summaryMarker}`, scheme: 'https', host: 'shop.example', rules: [] }] },
      sizeReport: null,
      imageReport: { images: [{ src: `https://cdn.example/${summaryMarker}.png`, kind: 'img', rules: [], width: 1, height: 1 }] },
    });
    for (const preview of [old, recent, notRetained]) {
      await previews.storeOutcome(preview.id, { storedResult: Buffer.from([0]), overallScore: 88, gateSummary: summary, accountId: account.accountId });
    }
    await db.query(`UPDATE previews SET created_at = now() - interval '8 days' WHERE id = $1`, [old.id]);
    const fixRuns = api.app.get(FixRunRepository);
    const fixBase = { accountId: account.accountId, format: 'html' as const, clients: ['gmail-web'], tiers: ['safe'], source: '<p>x</p>' };
    const oldFix = await fixRuns.create({ ...fixBase, expiresAt: new Date(Date.now() + 86_400_000) });
    const recentFix = await fixRuns.create({ ...fixBase, expiresAt: new Date(Date.now() + 86_400_000) });
    await db.query(
      `UPDATE fix_runs SET status = 'completed', created_at = CASE WHEN id = $1 THEN now() - interval '8 days' ELSE created_at END WHERE id = ANY($2)`,
      [oldFix.id, [oldFix.id, recentFix.id]],
    );

    // A screenshot only the old preview shows, one the recent preview shows too; webhook events old and settled, old and pending, recent.
    const [onlyOld, shared] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
    for (const hash of [onlyOld, shared]) await db.query(`INSERT INTO screenshot_images (hash, png, bytes, width, height) VALUES ($1, 'png', 3, 1, 1)`, [hash]);
    await db.query(`INSERT INTO preview_screenshots (preview_id, shot, hash) VALUES ($1, 'a-light', $2), ($1, 'b-light', $3), ($4, 'b-light', $3)`, [
      old.id,
      onlyOld,
      shared,
      recent.id,
    ]);
    await db.query(`INSERT INTO shares (id, preview_id, account_id) VALUES ($1, $2, $3)`, [opaqueId('shr'), old.id, account.accountId]);
    const [{ id: endpointId }]: Array<{ id: string }> = await db.query(
      `INSERT INTO webhook_endpoints (account_id, url, events, secret) VALUES ($1, 'https://hooks.example/r', '{gate.completed}', 'whsec_x') RETURNING id`,
      [account.accountId],
    );
    const events = {
      settled: `evt_${randomBytes(6).toString('hex')}`,
      pending: `evt_${randomBytes(6).toString('hex')}`,
      recent: `evt_${randomBytes(6).toString('hex')}`,
    };
    for (const [kind, id] of Object.entries(events)) {
      await db.query(
        `INSERT INTO webhook_events (id, account_id, type, source_key, payload, created_at) VALUES ($1, $2, 'gate.completed', $1, '{}', now() - $3::interval)`,
        [id, account.accountId, kind === 'recent' ? '1 day' : '8 days'],
      );
      await db.query(`INSERT INTO webhook_deliveries (endpoint_id, event_id, status) VALUES ($1, $2, $3)`, [
        endpointId,
        id,
        kind === 'pending' ? 'pending' : 'delivered',
      ]);
    }

    // One run of the scheduler's job (the same job its hourly-or-better job scheduler adds).
    const scheduler = await startScheduler(config);
    try {
      const [cleanup] = (await queues.scheduler.getJobSchedulers()).filter((entry) => entry.key === PREVIEW_CLEANUP_SCHEDULER_ID);
      expect(Number(cleanup.every)).toBe(15 * 60_000);
      const job = await queues.scheduler.add('preview-cleanup.run', { schemaVersion: 1 });
      await waitFor(async () => (await job.isCompleted()) || (await job.isFailed()), 'the sweep to finish', 20_000);
      expect(await job.isCompleted()).toBe(true);
    } finally {
      await scheduler.close();
    }
    const state: Array<{
      id: string;
      source: string;
      result: Buffer | null;
      overall_score: number;
      gate_summary: string | null;
      title: string;
      removed: boolean;
    }> = await db.query(
      'SELECT id, source, result, overall_score, gate_summary, title, content_removed_at IS NOT NULL AS removed FROM previews WHERE id = ANY($1)',
      [[old.id, recent.id, notRetained.id]],
    );
    const byId = Object.fromEntries(state.map((row) => [row.id, row]));
    for (const id of [old.id, notRetained.id]) {
      // The gate's summary goes with the content: it names the email's links and images.
      expect(byId[id]).toMatchObject({ source: '', result: null, gate_summary: null, overall_score: 88, title: 'kept title', removed: true });
    }
    expect(byId[recent.id]).toMatchObject({ removed: false, overall_score: 88 });
    // Kept, sealed: the summary's URLs are not in clear, and open as the gate reads them.
    expect(byId[recent.id].gate_summary).toMatch(/^mpe1:/);
    expect((await previews.findGateSummary(recent.id))?.gateSummary).toContain(summaryMarker);
    expect(byId[recent.id].result).not.toBeNull();
    const images: Array<{ hash: string }> = await db.query('SELECT hash FROM screenshot_images WHERE hash = ANY($1)', [[onlyOld, shared]]);
    expect(images.map((row) => row.hash)).toEqual([shared]);
    expect(await db.query('SELECT 1 FROM preview_screenshots WHERE preview_id = $1', [old.id])).toEqual([]);
    expect(await db.query('SELECT 1 FROM shares WHERE preview_id = $1', [old.id])).toEqual([]);
    const eventsLeft: Array<{ id: string }> = await db.query('SELECT id FROM webhook_events WHERE id = ANY($1) ORDER BY id', [Object.values(events)]);
    // The pending delivery of an 8-day-old event is past every retry the schedule allows (a lost job): it goes too.
    expect(eventsLeft.map((row) => row.id)).toEqual([events.recent]);
    const fixLeft: Array<{ id: string }> = await db.query('SELECT id FROM fix_runs WHERE id = ANY($1)', [[oldFix.id, recentFix.id]]);
    expect(fixLeft.map((row) => row.id)).toEqual([recentFix.id]);
    // A purged preview answers with what is left of it, never a 500.
    const answer = await request(api.url).get(`/api/preview/${old.id}`).set(auth(account.key));
    expect(answer.status).toBe(410);
    expect(answer.body).toMatchObject({ code: 'content_gone', contentRemoved: true, overallScore: 88 });
    // Nor can it be shared, rendered, or opened on the dashboard as if it were there.
    const share = await request(api.url).post('/api/share').set(auth(account.key)).send({ previewId: old.id });
    expect(share.status).toBe(410);
    expect(share.body).toMatchObject({ code: 'content_gone', contentRemoved: true });
    const shots = await request(api.url).post(`/api/preview/${old.id}/screenshots`).set(auth(account.key)).send({});
    expect(shots.status).toBe(410);
    expect(shots.body).toMatchObject({ code: 'content_gone', contentRemoved: true });
    const sessions = api.app.get(DashboardSessionStore);
    const { sessionId } = await sessions.create(account.accountId, account.keyId);
    const dashboardPage = await request(api.url).get(`/app/previews/${old.id}`).set('Cookie', `mp_session=${sessionId}`);
    expect(dashboardPage.status).toBe(200);
    expect(dashboardPage.text).toContain('kept title');
    expect(dashboardPage.text).toContain('content was removed after the account');
    expect(dashboardPage.text).not.toContain('/share" class="inline"');
  });

  it("waits for work under way, and sweeps a lost job's preview, fix run and pending delivery once past the longest it could live", async () => {
    const account = await createTestAccount(db, 'pro');
    await db.query('UPDATE accounts SET retention_days = 0 WHERE id = $1', [account.accountId]);
    const previews = api.app.get(PreviewRepository);
    const base = { accountId: account.accountId, title: null, format: 'html' as const, clients: ['gmail-web'], source: '<p>stuck</p>', expiresAt: null };
    // All still queued: one two hours old (its job may yet run), one 25 hours old (its job was lost).
    const [young, stuck] = [await previews.create(base), await previews.create(base)];
    const fixRuns = api.app.get(FixRunRepository);
    const fixBase = { ...base, tiers: ['safe'], expiresAt: new Date(Date.now() + 86_400_000) };
    const [youngFix, stuckFix] = [await fixRuns.create(fixBase), await fixRuns.create(fixBase)];
    await db.query(`UPDATE previews SET created_at = now() - interval '25 hours' WHERE id = $1`, [stuck.id]);
    await db.query(`UPDATE previews SET created_at = now() - interval '2 hours' WHERE id = $1`, [young.id]);
    await db.query(
      `UPDATE fix_runs SET created_at = CASE WHEN id = $1 THEN now() - interval '25 hours' ELSE now() - interval '2 hours' END WHERE id = ANY($2)`,
      [stuckFix.id, [stuckFix.id, youngFix.id]],
    );
    const [{ id: endpointId }]: Array<{ id: string }> = await db.query(
      `INSERT INTO webhook_endpoints (account_id, url, events, secret) VALUES ($1, 'https://hooks.example/s', '{gate.completed}', 'whsec_x') RETURNING id`,
      [account.accountId],
    );
    const events = { young: `evt_${randomBytes(6).toString('hex')}`, stuck: `evt_${randomBytes(6).toString('hex')}` };
    for (const [kind, id] of Object.entries(events)) {
      await db.query(
        `INSERT INTO webhook_events (id, account_id, type, source_key, payload, created_at) VALUES ($1, $2, 'gate.completed', $1, '{}', now() - $3::interval)`,
        [id, account.accountId, kind === 'young' ? '2 hours' : '25 hours'],
      );
      await db.query(`INSERT INTO webhook_deliveries (endpoint_id, event_id, status) VALUES ($1, $2, 'pending')`, [endpointId, id]);
    }

    await api.app.get(RetentionRepository).sweep();

    const rows: Array<{ id: string; removed: boolean; source: string }> = await db.query(
      'SELECT id, source, content_removed_at IS NOT NULL AS removed FROM previews WHERE id = ANY($1)',
      [[young.id, stuck.id]],
    );
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId[stuck.id]).toMatchObject({ removed: true, source: '' });
    expect(byId[young.id]).toMatchObject({ removed: false });
    const fixLeft: Array<{ id: string }> = await db.query('SELECT id FROM fix_runs WHERE id = ANY($1)', [[youngFix.id, stuckFix.id]]);
    expect(fixLeft.map((row) => row.id)).toEqual([youngFix.id]);
    const eventsLeft: Array<{ id: string }> = await db.query('SELECT id FROM webhook_events WHERE id = ANY($1)', [Object.values(events)]);
    expect(eventsLeft.map((row) => row.id)).toEqual([events.young]);
    expect(await db.query('SELECT 1 FROM webhook_deliveries WHERE event_id = $1', [events.stuck])).toEqual([]);
  });

  it("strips the email's URLs from gate runs and the template line from a failure once the content goes (raw SELECT)", async () => {
    const account = await createTestAccount(db, 'pro');
    await db.query('UPDATE accounts SET retention_days = 7 WHERE id = $1', [account.accountId]);
    const marker = `receipt-${randomBytes(6).toString('hex')}`;
    const previews = api.app.get(PreviewRepository);
    const base = { accountId: account.accountId, title: null, format: 'html' as const, clients: ['gmail-web'], source: '<p>x</p>', expiresAt: null };
    const [old, recent] = [await previews.create(base), await previews.create(base)];
    await db.query(`UPDATE previews SET status = 'failed', failure = $2 WHERE id = $1`, [
      old.id,
      JSON.stringify({ code: 'compile_failed', message: `Unexpected token near <a href="${marker}">`, line: 3 }),
    ]);
    await db.query(`UPDATE previews SET created_at = now() - interval '8 days' WHERE id = $1`, [old.id]);
    await db.query(`UPDATE previews SET status = 'completed' WHERE id = $1`, [recent.id]);
    const url = `https://shop.example/r/${marker}`;
    const verdict = {
      passed: false,
      overallScore: 71,
      worstClient: 'gmail-web',
      checks: ['compatibility', 'content'],
      baseline: { ref: 'r', comparedTo: null },
      failures: [
        { family: 'compatibility', check: 'threshold', clientId: 'gmail-web', score: 71, threshold: 80 },
        { family: 'content', check: 'links', href: url, reason: 'placeholder' },
        { family: 'content', check: 'alt-text', src: `${url}.png` },
        { family: 'content', check: 'link-unreachable', url, status: 404 },
      ],
      links: { resolved: true, checked: 1, unchecked: [{ url: `${url}/u`, reason: 'cap' }] },
    };
    const links = { checked: [{ url, status: 404 }], unchecked: [{ url: `${url}/u`, reason: 'cap' }] };
    // A run of the old preview, a run past its time whose preview was deleted, and a recent run (kept as it is).
    const runs = { ofOld: opaqueId('gtr'), orphan: opaqueId('gtr'), recent: opaqueId('gtr') };
    for (const [kind, id] of Object.entries(runs)) {
      await db.query(
        `INSERT INTO gate_runs (id, account_id, ref, request, preview_id, status, passed, overall_score, links, verdict, created_at)
         VALUES ($1, $2, 'r', '{}', $3, 'completed', false, 71, $4, $5, now() - $6::interval)`,
        [
          id,
          account.accountId,
          { ofOld: old.id, orphan: null, recent: recent.id }[kind],
          JSON.stringify(links),
          JSON.stringify(verdict),
          kind === 'recent' ? '1 hour' : '8 days',
        ],
      );
    }

    const swept = await api.app.get(RetentionRepository).sweep();
    expect(swept.gateRunsStripped).toBeGreaterThanOrEqual(1);

    const raw: Array<{ id: string; row: string; verdict: string | null; links: unknown; urls_removed_at: Date | null }> = await db.query(
      'SELECT id, g::text AS row, verdict, links, urls_removed_at FROM gate_runs g WHERE id = ANY($1)',
      [Object.values(runs)],
    );
    const byId = Object.fromEntries(raw.map((row) => [row.id, row]));
    const gateRuns = api.app.get(GateRunRepository);
    for (const id of [runs.ofOld, runs.orphan]) {
      expect(byId[id].row).not.toContain(marker);
      expect(byId[id].links).toBeNull();
      expect(byId[id].urls_removed_at).not.toBeNull();
      // Sealed again once stripped (these rows were stored in clear, before sealing), and readable: passed, scores, checks, which failed.
      expect(byId[id].verdict).toMatch(/^mpe1:/);
      const stripped = (await gateRuns.find(id))?.verdict;
      expect(JSON.stringify(stripped)).not.toContain(marker);
      expect(stripped).toMatchObject({ passed: false, overallScore: 71, checks: ['compatibility', 'content'] });
      expect(stripped?.failures.map((failure) => failure.check)).toEqual(['threshold', 'links', 'alt-text', 'link-unreachable']);
    }
    // Inside its time, a run stored in clear before sealing is left as it is (mailproof keys seal-existing seals it).
    expect(byId[runs.recent].row).toContain(marker);
    const [failed]: Array<{ row: string; failure: { code: string; line: number } }> = await db.query(
      'SELECT p::text AS row, failure FROM previews p WHERE id = $1',
      [old.id],
    );
    expect(failed.row).not.toContain(marker);
    expect(failed.failure).toMatchObject({ code: 'compile_failed', line: 3 });
    // What the API answers of the run is the verdict without the URLs, never a 500.
    const answer = await request(api.url).get(`/api/gate/runs/${runs.orphan}`).set(auth(account.key));
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain(marker);
  });
});
