import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { openDatabase } from '../utils/database';
import { freePort } from '../utils/free-port';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { startWorkerPreview } from '../utils/worker-preview';

const ROOT = join(__dirname, '..', '..');

/**
 * Templates that killed a worker (and, all-in-one, the API) before compiling moved into compile
 * processes. Each must now end as 422 compile_failed, with no retry, while the process that took
 * the request keeps serving.
 */
const HOSTILE_TEMPLATES: Array<{ name: string; format: 'jsx' | 'maizzle'; html: string }> = [
  {
    name: 'JSX Array.from of 1e9',
    format: 'jsx',
    html: 'export default function E() { const a = Array.from({ length: 1e9 }); return <div>{a.length}</div>; }',
  },
  { name: 'Maizzle each over Array.from of 1e9', format: 'maizzle', html: '<each loop="i in Array.from({length: 1e9})"><p>{{ i }}</p></each>' },
  { name: 'Maizzle expression filling the isolate heap', format: 'maizzle', html: '{{ Array.from({ length: 1e8 }, (_, i) => i).join(",") }}' },
  { name: 'new ArrayBuffer(2**31)', format: 'jsx', html: 'export default function E() { const b = new ArrayBuffer(2 ** 31); return <p>{b.byteLength}</p>; }' },
  { name: 'string doubling', format: 'jsx', html: 'export default function E() { let s = "x"; for (;;) s += s; }' },
  { name: 'recursion bomb', format: 'jsx', html: 'export default function E() { const f = (n) => f(n + 1) + 1; return <p>{f(0)}</p>; }' },
  { name: 'Atomics.wait', format: 'jsx', html: 'export default function E() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return <p />; }' },
  {
    name: 'a huge JSX tree',
    format: 'jsx',
    html: 'export default function E() { const rows = []; for (let i = 0; i < 3e6; i++) rows.push(<div key={i}>row {i}</div>); return <div>{rows}</div>; }',
  },
  {
    name: 'a Tailwind config that loops',
    format: 'jsx',
    html: 'import { Tailwind } from "@react-email/components"; const config = { theme: { extend: { get colors() { for (;;) {} } } } }; export default function E() { return <Tailwind config={config}><p className="text-red-500">x</p></Tailwind>; }',
  },
];

const GOOD_JSX = 'export default function Fine() { return <table role="presentation"><tr><td>Still serving</td></tr></table>; }';

/** POST /api/preview and, when the budget ran out first (503 with an id), GET it until it has an outcome. */
async function previewOutcome(url: string, body: Record<string, unknown>): Promise<request.Response> {
  const first = await request(url).post('/api/preview').send(body);
  if (first.status !== 503 || !first.body.id) return first;
  return waitFor(
    async () => {
      const res = await request(url).get(`/api/preview/${first.body.id}`);
      return res.status === 202 ? undefined : res;
    },
    `preview ${first.body.id} to have an outcome`,
    60_000,
    250,
  );
}

async function expectEveryHostileTemplateRefused(url: string): Promise<void> {
  const responses = await Promise.all(HOSTILE_TEMPLATES.map((template) => previewOutcome(url, { html: template.html, format: template.format })));
  responses.forEach((res, index) => {
    const { name } = HOSTILE_TEMPLATES[index];
    expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status: 422, code: 'compile_failed' });
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.detail).not.toMatch(/\bat \S+ \(|node_modules|\/work\//);
  });
  const fine = await previewOutcome(url, { html: GOOD_JSX, format: 'jsx', clients: ['gmail-web'] });
  expect(fine.status).toBe(200);
  expect(fine.body.transforms[0].html).toContain('Still serving');
}

const sharedEnv = { PREVIEW_BUDGET_MS: '20000', RATE_LIMIT_ANONYMOUS: '1000' };

describe('hostile templates against the all-in-one process', () => {
  const config = testConfig(sharedEnv);
  const queues = openQueues(config);
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [join(ROOT, 'dist', 'launcher', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, ...sharedEnv, PORT: String(port), HOST: '127.0.0.1', QUEUE_PREFIX: config.queue.prefix },
      stdio: 'ignore',
    });
    url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await request(url).get('/health/ready')).status === 200, 'the all-in-one process to be ready', 60_000, 250);
  }, 90_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await queues.closeAll();
  });

  it('answers each with 422 compile_failed and stays alive, API included', async () => {
    const pid = child.pid;
    await expectEveryHostileTemplateRefused(url);
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    expect(child.pid).toBe(pid);
    // Compile failures are outcomes, not job failures: nothing was retried.
    expect(await queues.preview.getFailedCount()).toBe(0);
  }, 180_000);
});

describe('hostile templates against separate API and worker processes', () => {
  const config = testConfig(sharedEnv);
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;
  const workers: AppProcess[] = [];

  const startWorker = async (env: Record<string, string> = {}) => {
    const worker = await startWorkerPreview(config, queues, env);
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

  it('answers each with 422 compile_failed while the worker keeps serving', async () => {
    const worker = await startWorker();
    await expectEveryHostileTemplateRefused(api.url);
    expect(worker.child.exitCode).toBeNull();
    expect(worker.child.signalCode).toBeNull();
    expect(await queues.preview.getFailedCount()).toBe(0);
    await worker.stop('SIGKILL');
  }, 180_000);

  it('retries a job that killed its worker once, then records it as failed with a reason the API returns', async () => {
    // A template that runs until its 5 s limit: long enough to kill the worker while it runs.
    const slow = 'export default function Slow() { for (;;) {} }';
    // Locks short enough that a killed worker's job comes back within seconds, long enough that a
    // loaded machine does not let a live worker's lock lapse.
    const shortLocks = { WORKER_LOCK_DURATION_MS: '5000', WORKER_STALLED_INTERVAL_MS: '1000' };
    const first = await startWorker(shortLocks);
    // The request waits out its budget (answered 503 with the id); the job tells the id sooner.
    const created = request(api.url)
      .post('/api/preview')
      .send({ html: slow, format: 'jsx' })
      .then((res) => res);
    const job = await waitFor(async () => (await queues.preview.getActive())[0], 'the job to be taken', 30_000, 50);
    const id: string = job.data.previewId;
    expect(id).toMatch(/^prv_/);

    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startWorker(shortLocks);
    await waitFor(
      async () => {
        const again = await queues.preview.getJob(String(job.id));
        return again && (await again.isActive()) && again.attemptsStarted >= 2 ? again : undefined;
      },
      'the job to be delivered a second time',
      30_000,
      50,
    );
    second.child.kill('SIGKILL');
    await second.exited;
    await startWorker(shortLocks);

    const failed = await waitFor(
      async () => {
        const res = await request(api.url).get(`/api/preview/${id}`);
        return res.status === 202 ? undefined : res;
      },
      'the preview to be recorded as failed',
      60_000,
      250,
    );
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe('internal_error');
    expect(failed.body.detail).toMatch(/stopped its worker twice/);
    const finalJob = await queues.preview.getJob(String(job.id));
    expect(await finalJob?.getState()).toBe('failed');
    expect(finalJob?.failedReason).toMatch(/stalled more than allowable limit/);
    // Run twice; the third start is BullMQ failing it on pickup, without running it.
    expect(finalJob?.attemptsStarted).toBe(3);
    // The first request's own answer depends on when its budget ends: still pending (503 with the id), or,
    // when the third worker recorded the failure before the request re-read the row, that failure itself.
    const answered = await created;
    if (answered.status === 503) expect(answered.body).toMatchObject({ code: 'service_unavailable', id });
    else {
      expect(answered.status).toBe(500);
      expect(answered.body).toMatchObject({ code: 'internal_error', id, detail: expect.stringMatching(/stopped its worker twice/) });
    }
  }, 180_000);
});
