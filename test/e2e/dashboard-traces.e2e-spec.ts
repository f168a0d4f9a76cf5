import type { INestApplicationContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { shutdownTracing, tracer } from '@mailproof/tracing';
import { startWorkerPreview } from '../../apps/worker-preview/src/start-worker-preview';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { signInToDashboard } from '../utils/dashboard-session';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

const EMAIL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Traced</title></head>
<body><table role="presentation"><tr><td>Autumn colors.</td></tr></table></body></html>`;

// TRACING=on without a collector: the API and the worker (both in this process, one tracer) write their
// spans to the embedded Redis stream, and the dashboard draws a preview's and a gate run's trace from it.
describe('the dashboard traces pages (embedded store)', () => {
  const config = testConfig({ TRACING: 'on', PREVIEW_BUDGET_MS: 15_000, GATE_BUDGET_MS: 15_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: INestApplicationContext;
  let db: DataSource;
  let owner: { key: string };
  let other: { key: string };

  beforeAll(async () => {
    db = await openDatabase(config);
    owner = await createTestAccount(db, 'pro');
    other = await createTestAccount(db, 'pro');
    worker = await startWorkerPreview(config);
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await shutdownTracing();
    await queues.closeAll();
    await db?.destroy();
  });

  async function signIn(key: string): Promise<string> {
    return (await signInToDashboard(api.url, key)).cookie;
  }

  /** The trace page once it shows `span` (the batch processor exports about once a second; flushed here). */
  async function tracePage(cookie: string, path: string, span: string): Promise<string> {
    return waitFor(async () => {
      await tracer().flush();
      const page = await request(api.url).get(path).set('Cookie', cookie).expect(200);
      return page.text.includes(span) ? page.text : undefined;
    }, `${span} on ${path}`);
  }

  it('links a preview to its trace, drawn as a waterfall in tree order, for its account only', async () => {
    const preview = await request(api.url).post('/api/preview').set('x-api-key', owner.key).send({ html: EMAIL, title: 'Traced' }).expect(200);
    const cookie = await signIn(owner.key);
    const detail = await request(api.url).get(`/app/previews/${preview.body.id}`).set('Cookie', cookie).expect(200);
    expect(detail.text).toContain(`href="/app/traces/previews/${preview.body.id}"`);

    const page = await tracePage(cookie, `/app/traces/previews/${preview.body.id}`, 'store (mailproof-');
    expect(page).toContain('>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;store (mailproof-');
    const order = ['POST /api/preview', 'enqueue preview.analyze', 'job preview.analyze', 'compile', 'analysis', 'engine', 'encode', 'store'].map((name) =>
      page.indexOf(`${name} (mailproof-`),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(page).toContain('<svg class="trace-bar"');
    expect(page).not.toContain('Autumn colors');

    const stranger = await signIn(other.key);
    await request(api.url).get(`/app/traces/previews/${preview.body.id}`).set('Cookie', stranger).expect(404);
  });

  it("links a gate run to its trace: the request and the run's steps", async () => {
    const run = await request(api.url).post('/api/gate').set('x-api-key', owner.key).send({ html: EMAIL }).expect(200);
    const cookie = await signIn(owner.key);
    const detail = await request(api.url).get(`/app/gate/runs/${run.body.runId}`).set('Cookie', cookie).expect(200);
    expect(detail.text).toContain(`href="/app/traces/gate-runs/${run.body.runId}"`);
    const page = await tracePage(cookie, `/app/traces/gate-runs/${run.body.runId}`, 'job gate.verdict');
    expect(page).toContain('POST /api/gate (mailproof-');
    expect(page).toContain('job preview.analyze (mailproof-');
  });

  it('says so when there is no trace', async () => {
    const preview = await request(api.url).post('/api/preview').set('x-api-key', owner.key).send({ html: EMAIL }).expect(200);
    await tracer().flush();
    // The stream moved past it (or it was never sampled): the subject names no trace.
    const client = new Redis(config.redis.url);
    await client.del(`${config.queue.prefix}:traces:subject:preview:${preview.body.id}`);
    client.disconnect();
    const cookie = await signIn(owner.key);
    const page = await request(api.url).get(`/app/traces/previews/${preview.body.id}`).set('Cookie', cookie).expect(200);
    expect(page.text).toContain('No trace is stored for this preview');
  });
});
