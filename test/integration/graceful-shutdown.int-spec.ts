import { QueueEvents } from 'bullmq';
import type { DataSource } from 'typeorm';
import { redisOptionsFromUrl } from '@mailproof/queue';
import { startAppProcess } from '../utils/app-process';
import { openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

describe('worker shutdown on SIGTERM', () => {
  const config = testConfig();
  const queues = openQueues(config);
  let db: DataSource;
  let events: QueueEvents;

  beforeAll(async () => {
    db = await openDatabase(config);
    events = new QueueEvents('dns-audit', { connection: redisOptionsFromUrl(config.redis.url), prefix: config.queue.prefix });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await events.close();
    await queues.closeAll();
    await db.destroy();
  });

  it('finishes the active jobs before exiting, so none is lost or stalled', async () => {
    const worker = startAppProcess('worker-dns', {
      QUEUE_PREFIX: config.queue.prefix,
      MIGRATE_ON_START: 'false',
      WORKER_DNS_CONCURRENCY: '3',
      LOG_LEVEL: 'info',
    });
    try {
      await waitFor(async () => (await queues['dns-audit'].getWorkersCount()) > 0, 'worker-dns to connect', 30_000);
      let stalled = 0;
      events.on('stalled', () => stalled++);
      const nonces = ['a', 'b', 'c'].map((n) => `shutdown-${n}-${Date.now()}`);
      const jobs = await Promise.all(
        nonces.map((nonce) => queues['dns-audit'].add('probe.run', { schemaVersion: 1, nonce, workMs: 1500 }, { jobId: `probe.run-${nonce}` })),
      );
      await waitFor(async () => (await queues['dns-audit'].getActiveCount()) === 3, 'all three jobs to be active');

      worker.child.kill('SIGTERM');
      const exitCode = await worker.exited;

      expect(exitCode).toBe(0);
      for (const job of jobs) expect(await queues['dns-audit'].getJobState(job.id!)).toBe('completed');
      const rows = await db.query('SELECT nonce FROM job_probes WHERE nonce = ANY($1) ORDER BY nonce', [nonces]);
      expect(rows.map((r: { nonce: string }) => r.nonce)).toEqual([...nonces].sort());
      expect(stalled).toBe(0);
      expect(worker.output()).toMatch(/SIGTERM received/);
    } finally {
      await worker.stop('SIGKILL');
    }
  });

  it('takes no new job once SIGTERM has arrived: queued jobs wait for the next worker', async () => {
    const worker = startAppProcess('worker-dns', { QUEUE_PREFIX: config.queue.prefix, MIGRATE_ON_START: 'false', WORKER_DNS_CONCURRENCY: '1' });
    try {
      await waitFor(async () => (await queues['dns-audit'].getWorkersCount()) > 0, 'worker-dns to connect', 30_000);
      const first = await queues['dns-audit'].add('probe.run', { schemaVersion: 1, nonce: `first-${Date.now()}`, workMs: 1200 });
      const second = await queues['dns-audit'].add('probe.run', { schemaVersion: 1, nonce: `second-${Date.now()}` });
      await waitFor(async () => (await queues['dns-audit'].getJobState(first.id!)) === 'active', 'the first job to be active');
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(await queues['dns-audit'].getJobState(first.id!)).toBe('completed');
      expect(await queues['dns-audit'].getJobState(second.id!)).toBe('waiting');
    } finally {
      await worker.stop('SIGKILL');
    }
  });
});
