import type { DataSource } from 'typeorm';
import request from 'supertest';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

// API (in-process) -> Redis -> worker-preview (a real separate process) -> PostgreSQL -> API.
describe('round trip through the real queue, worker process and database', () => {
  const config = testConfig();
  let api: RunningApi;
  let worker: AppProcess;
  let db: DataSource;
  let key: string;
  const queues = openQueues(config);

  beforeAll(async () => {
    db = await openDatabase(config);
    // The round trip queues a real job, so it needs a key (any plan).
    key = (await createTestAccount(db, 'free')).key;
    worker = startAppProcess('worker-preview', { QUEUE_PREFIX: config.queue.prefix, MIGRATE_ON_START: 'false' });
    api = await startTestApi(config);
    await waitFor(async () => (await queues.preview.getWorkersCount()) > 0, 'the worker-preview process to connect', 30_000);
  });

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await queues.closeAll();
    await db?.destroy();
  });

  it('enqueues, lets the worker process store the result in PostgreSQL, and answers from it within the budget', async () => {
    const response = await request(api.url).post('/api/diagnostics/round-trip').set('x-api-key', key).send({ queue: 'preview', budgetMs: 10_000 }).expect(200);
    expect(response.body).toMatchObject({ queue: 'preview', status: 'completed' });
    // The worker is another process: its pid is in the worker id, and it is not ours.
    expect(response.body.workerId).toMatch(new RegExp(`-${worker.child.pid}$`));
    expect(response.body.workerId).not.toMatch(new RegExp(`-${process.pid}$`));
    const rows = await db.query('SELECT queue, worker_id FROM job_probes WHERE job_id = $1', [response.body.jobId]);
    expect(rows).toEqual([{ queue: 'preview', worker_id: response.body.workerId }]);
    const job = await queues.preview.getJob(response.body.jobId);
    expect(await job?.getState()).toBe('completed');
    // The API reads the durations of completed jobs in batches; this one shows in its metrics shortly after.
    await waitFor(
      async () => /mailproof_job_duration_seconds_count\{queue="preview",job="[^"]+"\} [1-9]/.test((await request(api.url).get('/metrics')).text),
      'the job duration in the metrics',
      30_000,
    );
  });

  it('gives a clean 503 with the job id when no worker answers within the budget, and leaves the job queued', async () => {
    // Nothing consumes the render queue in this test.
    const started = Date.now();
    const response = await request(api.url).post('/api/diagnostics/round-trip').set('x-api-key', key).send({ queue: 'render', budgetMs: 400 }).expect(503);
    const elapsed = Date.now() - started;
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.body).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(typeof response.body.jobId).toBe('string');
    expect(elapsed).toBeGreaterThanOrEqual(400);
    const job = await queues.render.getJob(response.body.jobId);
    expect(await job?.getState()).toBe('waiting');
  });

  it('reports readiness per queue: preview has a live worker, render has none', async () => {
    const response = await request(api.url).get('/health/ready').expect(503);
    expect(response.body.code).toBe('service_unavailable');
    expect(response.body.details).toMatchObject({
      postgres: { status: 'up' },
      redis: { status: 'up' },
      'queue:preview': { status: 'up', workers: 1 },
      'queue:render': { status: 'down', workers: 0 },
    });
  });
});
