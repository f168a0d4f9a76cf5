import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { DataKeyRepository, DataKeyring } from '@mailproof/persistence';
import { startWorkerPreview } from '../../apps/worker-preview/src/start-worker-preview';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

// Words that appear in each email and must never appear in a stored column: source, files, result and
// gate summary hold them in the clear before encryption (the result holds every client's rendered markup).
const SECRET = 'Jane Example';
const LINK = 'https://shop.example/receipt/jane-example-4242';
const email = (n: number) => `<!doctype html><html><head><title>Receipt ${n}</title></head><body><table role="presentation"><tr><td style="color:#333333">
Thank you, ${SECRET}: order ${n} ships today. <a href="${LINK}?n=${n}">Your receipt</a> <img src="https://shop.example/${n}.png" alt="${SECRET}" width="10" height="10">
</td></tr></table></body></html>`;

describe('encryption at rest, through the API and the worker (real PostgreSQL, Redis, BullMQ)', () => {
  const config = testConfig({ PREVIEW_BUDGET_MS: 20_000, GATE_BUDGET_MS: 20_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: INestApplicationContext;
  let db: DataSource;
  let account: { accountId: string; key: string };
  let pro: { accountId: string; key: string };
  const previewIds: string[] = [];
  const fixIds: string[] = [];

  beforeAll(async () => {
    db = await openDatabase(config);
    account = await createTestAccount(db, 'free');
    pro = await createTestAccount(db, 'pro');
    worker = await startWorkerPreview(config);
    api = await startTestApi(config);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await queues.closeAll();
    await db?.query('DELETE FROM accounts WHERE id = ANY($1)', [[account.accountId, pro.accountId]]);
    await db?.destroy();
  });

  it('stores previews (anonymous and an account’s), fix runs and a gate run’s preview as ciphertext only, and answers them in the clear', async () => {
    for (const [n, key] of [
      [1, undefined],
      [2, account.key],
      [3, account.key],
    ] as const) {
      const post = request(api.url).post('/api/preview');
      const response = await (key ? post.set('x-api-key', key) : post).send({ html: email(n) }).expect(200);
      expect(JSON.stringify(response.body)).toContain(SECRET);
      previewIds.push(response.body.id);
    }
    const fixed = await request(api.url)
      .post('/api/fix')
      .set('x-api-key', account.key)
      .send({ html: email(4) })
      .expect(200);
    fixIds.push(fixed.body.id);
    const gate = await request(api.url)
      .post('/api/gate')
      .set('Authorization', `Bearer ${pro.key}`)
      .send({ html: email(5) });
    expect(gate.status).toBe(200);
    const [{ preview_id: gatePreview }] = (await db.query('SELECT preview_id FROM gate_runs WHERE account_id = $1', [pro.accountId])) as Array<{
      preview_id: string;
    }>;
    previewIds.push(gatePreview);

    const previews = (await db.query('SELECT id, source, files::text AS files, result, gate_summary FROM previews WHERE id = ANY($1)', [previewIds])) as Array<{
      id: string;
      source: string;
      files: string | null;
      result: Buffer;
      gate_summary: string | null;
    }>;
    expect(previews.map((row) => row.id).sort()).toEqual([...previewIds].sort());
    for (const row of previews) {
      expect(row.source).toMatch(/^mpe1:/);
      expect(row.result.subarray(0, 3)).toEqual(Buffer.from([0x4d, 0x50, 1]));
      if (row.gate_summary !== null) expect(row.gate_summary).toMatch(/^mpe1:/);
      for (const column of [row.source, row.files, row.result.toString('latin1'), row.gate_summary]) {
        expect(String(column)).not.toContain(SECRET);
        expect(String(column)).not.toContain('shop.example');
      }
    }
    const [run] = (await db.query('SELECT source, result FROM fix_runs WHERE id = $1', [fixIds[0]])) as Array<{ source: string; result: Buffer }>;
    expect(run.source).toMatch(/^mpe1:/);
    expect(run.result.subarray(0, 3)).toEqual(Buffer.from([0x4d, 0x50, 1]));
    expect(run.result.toString('latin1')).not.toContain(SECRET);

    const read = await request(api.url).get(`/api/preview/${previewIds[1]}`).set('x-api-key', account.key).set('Accept-Encoding', 'br').expect(200);
    expect(read.body.id).toBe(previewIds[1]);
    expect(JSON.stringify(read.body)).toContain(SECRET);
    expect(JSON.stringify((await request(api.url).get(`/api/fix/${fixIds[0]}`).set('x-api-key', account.key).expect(200)).body)).toContain(SECRET);
  }, 90_000);

  it("answers 410 content_gone for an account's preview once its data key is destroyed (a restored backup after erasure)", async () => {
    expect(await new DataKeyRepository(db, new DataKeyring(config.encryption.keys)).destroyForAccount(account.accountId)).toBe(true);
    // A fresh API, as after a restart: the running one still holds the data key it used (docs/privacy.md).
    const restarted = await startTestApi(config);
    try {
      for (const path of [`/api/preview/${previewIds[1]}`, `/api/fix/${fixIds[0]}`]) {
        const gone = await request(restarted.url).get(path).set('x-api-key', account.key);
        expect({ status: gone.status, type: gone.headers['content-type'], code: gone.body.code }).toEqual({
          status: 410,
          type: 'application/problem+json',
          code: 'content_gone',
        });
        expect(JSON.stringify(gone.body)).not.toContain(SECRET);
      }
      // Other owners' content stays readable.
      await request(restarted.url).get(`/api/preview/${previewIds[0]}`).expect(200);
    } finally {
      await restarted.close();
    }
  }, 60_000);
});
