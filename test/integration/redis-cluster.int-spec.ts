import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { TestRedisCluster } from '../utils/redis-cluster';
import { testConfig } from '../utils/test-config';
import { startWorkerPreview } from '../utils/worker-preview';

const EMAIL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cluster</title></head>
<body><table role="presentation" width="600"><tr><td style="font-family:Arial,sans-serif;color:#222222;background-color:#ffffff">
<p>Queued over a Redis Cluster.</p></td></tr></table></body></html>`;

/**
 * Queues, caches and rate limits on a real Redis Cluster of three masters (the test's own, on loopback
 * ports): the API in-process and a worker-preview process both connect with REDIS_CLUSTER_NODES, and a
 * preview and a gate run go through BullMQ on the cluster to PostgreSQL and back.
 */
describe('on a Redis Cluster', () => {
  let cluster: TestRedisCluster;
  let config: ReturnType<typeof testConfig>;
  let queues: ReturnType<typeof openQueues>;
  let api: RunningApi;
  let worker: AppProcess;
  let db: DataSource;
  let pro: string;

  beforeAll(async () => {
    cluster = await TestRedisCluster.start(3);
    const env = { REDIS_URL: cluster.url, REDIS_CLUSTER_NODES: cluster.nodes };
    config = testConfig({ ...env, RATE_LIMIT_ANONYMOUS: 3 });
    queues = openQueues(config);
    db = await openDatabase(config);
    pro = (await createTestAccount(db, 'pro')).key;
    api = await startTestApi(config);
    worker = await startWorkerPreview(config, queues, env, ['preview', 'gate', 'link-check']);
  }, 90_000);

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await queues?.closeAll();
    await db?.destroy();
    await cluster?.destroy();
  });

  it('wraps the queue prefix in a hash tag, so each queue and each flow stays in one slot', () => {
    expect(config.queue.prefix).toBe(`{${process.env.QUEUE_PREFIX}}`);
  });

  it('runs a preview through the cluster: the API enqueues, the worker process stores it, the API answers', async () => {
    const res = await request(api.url).post('/api/preview').set('Authorization', `Bearer ${pro}`).send({ html: EMAIL });
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^prv_/);
    const rows = await db.query('SELECT id FROM previews WHERE id = $1', [res.body.id]);
    expect(rows).toHaveLength(1);
    const stored = await request(api.url).get(`/api/preview/${res.body.id}`).set('Authorization', `Bearer ${pro}`);
    expect(stored.status).toBe(200);
    // The queue's keys live on the cluster (on one node: the hash tag), not on the shared test Redis.
    const holders = cluster.keysPerNode(`${config.queue.prefix}:preview:*`).filter((keys) => keys.length > 0);
    expect(holders).toHaveLength(1);
  });

  it('runs a gate (a BullMQ flow over the gate and preview queues) through the cluster', async () => {
    const res = await request(api.url).post('/api/gate').set('Authorization', `Bearer ${pro}`).send({ html: EMAIL });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ passed: true, failures: [] });
    expect(res.body.runId).toMatch(/^gtr_/);
    const runs = await db.query('SELECT id FROM gate_runs WHERE id = $1', [res.body.runId]);
    expect(runs).toHaveLength(1);
  });

  it('counts rate limits in the cluster: the fourth anonymous request of a 3-per-window limit is refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(api.url).get('/api/clients')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const counters = cluster.keysPerNode(`${config.queue.prefix}:rl:anonymous*`).flat();
    expect(counters.length).toBeGreaterThan(0);
  });

  it("erases an account's keys, rate-limit windows and jobs on every node of the cluster", async () => {
    const account = await createTestAccount(db, 'pro');
    const auth = `Bearer ${account.key}`;
    const preview = await request(api.url).post('/api/preview').set('Authorization', auth).send({ html: EMAIL });
    expect(preview.status).toBe(200);
    const named = () =>
      cluster
        .keysPerNode(`${config.queue.prefix}:*`)
        .flat()
        .filter((key) => [account.accountId, account.keyId, preview.body.id].some((id) => key.includes(id)));
    expect(named().length).toBeGreaterThan(0);
    await request(api.url).delete('/api/account').set('Authorization', auth).set('Mailproof-Confirm', 'delete').expect(200);
    expect(named()).toEqual([]);
    // The key is unknown now, so the request counts against this file's anonymous limit of 3 (spent above): 401 or 429, never the account.
    expect([401, 429]).toContain((await request(api.url).get('/api/account').set('Authorization', auth)).status);
  });

  it('reports Redis up on readiness from the cluster', async () => {
    const res = await request(api.url).get('/health/ready');
    expect(res.body.details?.redis ?? res.body.info?.redis).toMatchObject({ status: 'up' });
  });
});
