import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { generateApiKey } from '@mailproof/persistence';
import { ApiModule } from '../../apps/api/src/api.module';
import { RequiresPlan } from '../../apps/api/src/auth/auth.decorators';
import { UsageRecorder } from '../../apps/api/src/auth/usage-recorder.service';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { sleep } from '../utils/wait';

// A Pro-only route of the test's own, so the 403 path is tested before the gate exists.
@Controller('api/test-pro-only')
class ProOnlyController {
  @Get()
  @RequiresPlan('pro')
  ok() {
    return { ok: true };
  }
}

function withProOnlyRoute(config: ReturnType<typeof testConfig>): DynamicModule {
  @Module({ imports: [ApiModule.forRoot(config)], controllers: [ProOnlyController] })
  class TestRootModule {}
  return { module: TestRootModule };
}

const HEADER_STYLES = {
  bearer: (key: string) => ({ Authorization: `Bearer ${key}` }),
  'x-api-key': (key: string) => ({ 'x-api-key': key }),
} as const;

describe('authentication, keys and usage', () => {
  const config = testConfig({ API_KEY_CACHE_TTL_MS: 1000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let otherApi: RunningApi;
  let db: DataSource;
  let free: { accountId: string; key: string; keyId: string };
  let pro: { accountId: string; key: string; keyId: string };

  beforeAll(async () => {
    db = await openDatabase(config);
    free = await createTestAccount(db, 'free');
    pro = await createTestAccount(db, 'pro');
    api = await startTestApi(config, withProOnlyRoute(config));
    otherApi = await startTestApi(config, withProOnlyRoute(config));
  });

  afterAll(async () => {
    await api.close();
    await otherApi.close();
    await queues.closeAll();
    await db.destroy();
  });

  describe.each(Object.entries(HEADER_STYLES))('the 401/403 matrix through %s', (_, header) => {
    const unauthorized = async (response: request.Response) => {
      expect(response.status).toBe(401);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      const { instance: _instance, requestId: _requestId, ...body } = response.body;
      return body;
    };

    it('gives missing, malformed, unknown and revoked keys one and the same 401 body', async () => {
      const revoked = await createTestAccount(db, 'free');
      await request(api.url).delete(`/api/keys/${revoked.keyId}`).set(header(revoked.key)).expect(204);
      const bodies = [
        await unauthorized(await request(api.url).get('/api/keys')),
        await unauthorized(await request(api.url).get('/api/keys').set(header('mp_live_not-a-key'))),
        await unauthorized(await request(api.url).get('/api/keys').set(header(generateApiKey()))),
        await unauthorized(await request(api.url).get('/api/keys').set(header(revoked.key))),
      ];
      expect(bodies[0]).toMatchObject({ status: 401, code: 'unauthorized' });
      for (const body of bodies) expect(body).toEqual(bodies[0]);
    });

    it('lets a valid key through and refuses a free key on a Pro endpoint with 403 plan_required', async () => {
      await request(api.url).get('/api/keys').set(header(free.key)).expect(200);
      const refused = await request(api.url).get('/api/test-pro-only').set(header(free.key)).expect(403);
      expect(refused.body).toMatchObject({ status: 403, code: 'plan_required' });
      await request(api.url).get('/api/test-pro-only').set(header(pro.key)).expect(200, { ok: true });
      await request(api.url).get('/api/test-pro-only').expect(401);
    });
  });

  it('refuses two different keys in the two headers', async () => {
    await request(api.url)
      .get('/api/keys')
      .set({ Authorization: `Bearer ${free.key}`, 'x-api-key': pro.key })
      .expect(401);
  });

  it('creates keys (shown once), lists them with usage, enforces the plan limit and revokes', async () => {
    const account = await createTestAccount(db, 'free');
    const created = await request(api.url).post('/api/keys').set('x-api-key', account.key).send({ name: 'ci' }).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      key: expect.stringMatching(/^mp_live_[0-9A-Za-z]{38}$/),
      prefix: created.body.key.slice(0, 12),
      createdAt: expect.any(String),
    });
    // Free accounts hold two keys: the first one plus "ci".
    const third = await request(api.url).post('/api/keys').set('x-api-key', account.key).send({ name: 'one too many' }).expect(403);
    expect(third.body).toMatchObject({ code: 'forbidden', limit: 2 });

    const listed = await request(api.url).get('/api/keys').set('x-api-key', created.body.key).expect(200);
    expect(listed.body.keys.map((k: { name: string }) => k.name)).toEqual(['default', 'ci']);
    for (const key of listed.body.keys) {
      expect(key).not.toHaveProperty('key');
      expect(key.usage.daily).toHaveLength(30);
    }

    await request(api.url).delete(`/api/keys/${created.body.id}`).set('x-api-key', account.key).expect(204);
    // The revoking instance refuses the key at once.
    await request(api.url).get('/api/keys').set('x-api-key', created.body.key).expect(401);
    await request(api.url).post('/api/keys').set('x-api-key', account.key).send({ name: 'room again' }).expect(201);
  });

  it("answers 404 for another account's key, an unknown id and a malformed id", async () => {
    await request(api.url).delete(`/api/keys/${pro.keyId}`).set('x-api-key', free.key).expect(404);
    await request(api.url).delete('/api/keys/00000000-0000-4000-8000-000000000000').set('x-api-key', free.key).expect(404);
    await request(api.url).delete('/api/keys/not-a-uuid').set('x-api-key', free.key).expect(404);
    await request(api.url).get('/api/test-pro-only').set('x-api-key', pro.key).expect(200);
  });

  it('validates the key name', async () => {
    const response = await request(api.url).post('/api/keys').set('x-api-key', pro.key).send({ name: '' }).expect(400);
    expect(response.body.errors[0].field).toBe('name');
  });

  it('refuses a key revoked on another instance within the cache time (at most 5 s)', async () => {
    const account = await createTestAccount(db, 'pro');
    await request(otherApi.url).get('/api/keys').set('x-api-key', account.key).expect(200); // now cached there
    await request(api.url).delete(`/api/keys/${account.keyId}`).set('x-api-key', account.key).expect(204);
    await sleep(config.auth.keyCacheTtlMs + 100);
    await request(otherApi.url).get('/api/keys').set('x-api-key', account.key).expect(401);
  });

  it('counts usage per key, per day and per kind, matching the requests made', async () => {
    const account = await createTestAccount(db, 'pro');
    for (let i = 0; i < 3; i++) await request(api.url).get('/api/keys').set('x-api-key', account.key).expect(200);
    // Kinds come from the path: these five count as preview, deliverability, gate, mcp and fix.
    for (const path of ['/api/preview/x', '/api/deliverability', '/api/gate', '/api/mcp', '/api/fix/x']) {
      await request(api.url).get(path).set('x-api-key', account.key);
    }
    await api.app.get(UsageRecorder).flush(); // usage is written in batches, once a second
    const listed = await request(api.url).get('/api/keys').set('x-api-key', account.key).expect(200);
    const usage = listed.body.keys[0].usage;
    // 3 + 5 (this listing itself is counted in the next batch).
    expect(usage.last30Days).toEqual({ requests: 8, previews: 1, gates: 1, deliverability: 1, mcp: 1, fixes: 1 });
    expect(usage.daily[29]).toEqual({ date: new Date().toISOString().slice(0, 10), requests: 8 });
    expect(listed.body.keys[0].lastUsedAt).not.toBeNull();
  });

  it('stores no plaintext key in any table', async () => {
    const account = await createTestAccount(db, 'free');
    const created = await request(api.url).post('/api/keys').set('x-api-key', account.key).send({ name: 'dump-me' }).expect(201);
    const tables: Array<{ table_name: string }> = await db.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await db.query(`SELECT * FROM "${table_name}"`);
      dump += JSON.stringify(rows, (_, value) => (value?.type === 'Buffer' ? Buffer.from(value.data).toString('latin1') : value));
    }
    for (const key of [account.key, created.body.key]) {
      expect(dump).toContain(key.slice(0, 12)); // the display prefix is there
      expect(dump).not.toContain(key.slice(12)); // the secret part is not
    }
  });
});
