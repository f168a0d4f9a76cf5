import type { DataSource } from 'typeorm';
import request from 'supertest';
import { decodePreviewResult, PreviewRepository, ScreenshotRepository } from '@mailproof/persistence';
import type { AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { openDatabase, testRowCipher } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { startWorkerPreview } from '../utils/worker-preview';

// Fault and load tests with the real API, Redis, PostgreSQL and worker-preview processes.
const EMAIL = `<!doctype html><html lang="en"><head><title>Fault test</title><style>.c{display:flex;border-radius:4px}</style></head>
<body><table role="presentation"><tr><td class="c" style="color:#333;background:#fff">${'<p>Paragraph of the fault-test email.</p>'.repeat(40)}</td></tr></table></body></html>`;

describe('preview pipeline under faults and load', () => {
  // Short locks so the jobs of a killed worker come back within seconds, not 30 s.
  const workerEnv = { WORKER_LOCK_DURATION_MS: '3000', WORKER_STALLED_INTERVAL_MS: '1000', WORKER_PREVIEW_CONCURRENCY: '2', MIGRATE_ON_START: 'false' };
  const config = testConfig({ PREVIEW_BUDGET_MS: 6000, ...workerEnv });
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;
  const workers: AppProcess[] = [];

  const startWorker = async () => {
    const worker = await startWorkerPreview(config, queues, workerEnv);
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop('SIGKILL');
    await api.close();
    await queues.closeAll();
    await db.destroy();
  });

  it('loses nothing when the worker is killed with SIGKILL while 50 previews are in flight', async () => {
    const first = await startWorker();
    const started = new Date();
    const responses = Array.from({ length: 50 }, () =>
      request(api.url)
        .post('/api/preview')
        .send({ html: EMAIL, clients: ['gmail-web', 'outlook-windows-legacy', 'apple-mail-ios'] }),
    );
    const settled = Promise.all(responses.map((r) => r.then((res) => res)));
    // Completed analyses leave Redis at once (previewAnalyzeJob): PostgreSQL counts them.
    await waitFor(
      async () => (await db.query("SELECT count(*)::int AS done FROM previews WHERE status = 'completed' AND created_at > $1", [started]))[0].done >= 4,
      'a few previews to complete before the kill',
      30_000,
    );
    // The kill must land mid-run: some jobs still waiting or active, or there is no recovery to test.
    const counts = await queues.preview.getJobCounts('active', 'waiting');
    expect(counts.active + counts.waiting).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    await first.exited;
    await startWorker();

    const results = await settled;
    const ids: string[] = [];
    for (const res of results) {
      expect([200, 503]).toContain(res.status);
      expect(res.body.id).toMatch(/^prv_/);
      if (res.status === 503) expect(res.body.code).toBe('service_unavailable');
      ids.push(res.body.id);
    }
    expect(new Set(ids).size).toBe(50);

    // Every id ends with a stored result, also those answered 503.
    await waitFor(
      async () => {
        const [{ done }] = await db.query("SELECT count(*)::int AS done FROM previews WHERE id = ANY($1) AND status = 'completed'", [ids]);
        return done === 50;
      },
      'all 50 previews to be stored',
      60_000,
      250,
    );
    for (const res of results.filter((r) => r.status === 503)) await request(api.url).get(`/api/preview/${res.body.id}`).expect(200);
    // The same email always gives the same result: nothing was processed into two different results.
    const previews = new PreviewRepository(db, new ScreenshotRepository(db), testRowCipher(db, config));
    const rows = await Promise.all(ids.map((id) => previews.find(id)));
    const withoutIds = new Set(rows.map((row) => JSON.stringify({ ...JSON.parse(decodePreviewResult(row!.result!).toString()), id: undefined })));
    expect(withoutIds.size).toBe(1);
    expect(await queues.preview.getFailedCount()).toBe(0);
  });

  it('completes 200 concurrent previews with no 5xx but documented 503s', async () => {
    if (workers.every((w) => w.child.exitCode !== null)) await startWorker();
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        request(api.url)
          .post('/api/preview')
          .send({ html: EMAIL, clients: ['gmail-web'] })
          .then((res) => res),
      ),
    );
    const statuses = results.map((r) => r.status);
    for (const res of results) {
      expect([200, 503]).toContain(res.status);
      if (res.status === 503) expect(res.body).toMatchObject({ code: 'service_unavailable', id: expect.stringMatching(/^prv_/) });
    }
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    const ids = results.map((r) => r.body.id);
    await waitFor(
      async () => {
        const [{ done }] = await db.query("SELECT count(*)::int AS done FROM previews WHERE id = ANY($1) AND status = 'completed'", [ids]);
        return done === 200;
      },
      'all 200 previews to be stored',
      90_000,
      250,
    );
  });
});
