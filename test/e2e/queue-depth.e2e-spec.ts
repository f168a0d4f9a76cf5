import request from 'supertest';
import { Worker } from 'bullmq';
import { QUEUE_NAMES } from '@mailproof/contracts';
import { bullConnection, redisOptionsFromUrl } from '@mailproof/queue';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

/** KEDA's metrics-api trigger reads one number from the answer with a GJSON path (`valueLocation`); these paths are plain dotted keys. */
const valueAt = (body: unknown, location: string): unknown =>
  location.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], body);

// GET /metrics/queues: the backlog KEDA scales the worker pools on (docs/deploy.md), over real Redis and BullMQ.
describe('queue depth for autoscalers', () => {
  const token = 'queue-depth-token-0123456789';
  const config = testConfig({ METRICS_TOKEN: token });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: Worker | undefined;

  beforeAll(async () => {
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await worker?.close();
    await api.close();
    await queues.closeAll();
  });

  const get = (path: string) => request(api.url).get(path).set('Authorization', `Bearer ${token}`);

  it('counts 200 jobs of which 50 prioritized and 20 delayed exactly: backlog = waiting + prioritized, delayed apart', async () => {
    const plain = Array.from({ length: 130 }, (_, i) => ({ name: 'probe.run', data: { i }, opts: { jobId: `plain-${i}` } }));
    const prioritized = Array.from({ length: 50 }, (_, i) => ({ name: 'probe.run', data: { i }, opts: { jobId: `prio-${i}`, priority: 1 + (i % 5) } }));
    const delayed = Array.from({ length: 20 }, (_, i) => ({ name: 'probe.run', data: { i }, opts: { jobId: `later-${i}`, delay: 3_600_000 } }));
    await queues.preview.addBulk([...plain, ...prioritized, ...delayed]);
    // One job of another queue taken by a worker: active, and no longer waiting.
    await queues.render.addBulk(Array.from({ length: 3 }, (_, i) => ({ name: 'probe.run', data: { i }, opts: { jobId: `render-${i}` } })));
    worker = new Worker('render', null, {
      connection: bullConnection(config.redis, redisOptionsFromUrl(config.redis.url)),
      prefix: config.queue.prefix,
      autorun: false,
    });
    expect(await worker.getNextJob('test-token')).toBeDefined();

    const response = await get('/metrics/queues').expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body.queues.preview).toEqual({ backlog: 180, waiting: 130, prioritized: 50, delayed: 20, active: 0 });
    expect(response.body.queues.render).toEqual({ backlog: 2, waiting: 2, prioritized: 0, delayed: 0, active: 1 });
    expect(Object.keys(response.body.queues).sort()).toEqual([...QUEUE_NAMES].sort());
    for (const queue of QUEUE_NAMES.filter((name) => name !== 'preview' && name !== 'render')) {
      expect(response.body.queues[queue]).toEqual({ backlog: 0, waiting: 0, prioritized: 0, delayed: 0, active: 0 });
    }
    // What the ScaledObjects in deploy/k8s read.
    expect(valueAt(response.body, 'queues.preview.backlog')).toBe(180);
    expect(valueAt(response.body, 'queues.link-check.backlog')).toBe(0);

    // The same figures as Prometheus gauges.
    const scrape = await get('/metrics').expect(200);
    expect(scrape.text).toContain('mailproof_queue_backlog{queue="preview"} 180');
    expect(scrape.text).toContain('mailproof_queue_backlog{queue="render"} 2');
    expect(scrape.text).toContain('mailproof_queue_jobs{queue="preview",state="prioritized"} 50');
    expect(scrape.text).toContain('mailproof_queue_jobs{queue="preview",state="delayed"} 20');
  });

  it('is guarded exactly like /metrics: the same 401 without the token, and no rate-limit headers', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Bearer ${token}x`]) {
      const [metrics, depth] = await Promise.all(
        ['/metrics', '/metrics/queues'].map((path) => {
          const call = request(api.url).get(path);
          return authorization === undefined ? call : call.set('Authorization', authorization);
        }),
      );
      expect(depth.status).toBe(401);
      expect(depth.status).toBe(metrics.status);
      expect(depth.headers['content-type']).toBe('application/problem+json');
      expect(depth.body.code).toBe(metrics.body.code);
      expect(depth.headers['www-authenticate']).toBe(metrics.headers['www-authenticate']);
      expect(depth.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('queue depth without METRICS_TOKEN', () => {
  const config = testConfig();
  const queues = openQueues(config);
  let api: RunningApi;

  beforeAll(async () => {
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api.close();
    await queues.closeAll();
  });

  it('answers direct loopback requests only, like /metrics: 404 through a proxy', async () => {
    const direct = await request(api.url).get('/metrics/queues').expect(200);
    expect(direct.body.queues.preview).toEqual({ backlog: 0, waiting: 0, prioritized: 0, delayed: 0, active: 0 });
    for (const [header, value] of [
      ['X-Forwarded-For', '203.0.113.9'],
      ['Forwarded', 'for=203.0.113.9'],
    ]) {
      const [metrics, depth] = await Promise.all(['/metrics', '/metrics/queues'].map((path) => request(api.url).get(path).set(header, value)));
      expect(depth.status).toBe(404);
      expect(metrics.status).toBe(404);
      expect(depth.body.code).toBe(metrics.body.code);
    }
  });
});
