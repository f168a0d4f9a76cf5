import { randomUUID } from 'node:crypto';
import { Worker, type Job } from 'bullmq';
import { bullConnection, createRedisClient, eraseAccountFromRedis, redisOptionsFromUrl, type RedisClient } from '@mailproof/queue';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

/**
 * Erasure and the jobs a worker is running (docs/privacy.md, "Erasure"): BullMQ refuses to remove a locked job (remove
 * answers 0), so the erasure waits for it within a bound and retries; a job still running then is reported by name.
 * Real Redis and a real BullMQ worker holding the job's lock.
 */
describe('erasure of jobs a worker is running', () => {
  const config = testConfig();
  const queues = openQueues(config);
  let redis: RedisClient;
  let worker: Worker | undefined;

  beforeAll(() => {
    redis = createRedisClient(config.redis, redisOptionsFromUrl(config.redis.url));
  });

  afterEach(async () => {
    await worker?.close(true);
    worker = undefined;
  });

  afterAll(async () => {
    await queues.closeAll();
    redis.disconnect();
  });

  /** A worker on the render queue whose job runs until `release` is called. */
  function blockingWorker(): { started: Promise<Job>; release: () => void } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: (job: Job) => void;
    const startedPromise = new Promise<Job>((resolve) => (started = resolve));
    worker = new Worker(
      'render',
      async (job) => {
        started(job);
        await released;
        return { ok: true };
      },
      { connection: bullConnection(config.redis, redisOptionsFromUrl(config.redis.url)), prefix: config.queue.prefix, lockDuration: 30_000 },
    );
    return { started: startedPromise, release };
  }

  const erase = (subjectId: string, activeWaitMs: number) =>
    eraseAccountFromRedis(
      { queue: redis, rateLimits: redis },
      [queues.render],
      config.queue.prefix,
      { accountId: randomUUID(), keyIds: [], jobSubjectIds: [subjectId] },
      activeWaitMs,
    );

  it('waits for a running job to end, then removes it and its events', async () => {
    const subject = `prv_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const { started, release } = blockingWorker();
    await queues.render.add('render.screenshots', { previewId: subject }, { jobId: `render-${subject}` });
    const job = await started;
    // Locked by the worker: BullMQ's remove answers 0, as the erasure finds it.
    expect(await queues.render.remove(job.id!)).toBe(0);
    // The real remove, observed: the job is released only once the erasure was refused at least once (it had to wait).
    const removals = jest.spyOn(queues.render, 'remove');
    const erasure = erase(subject, 20_000);
    await waitFor(
      async () => (await Promise.all(removals.mock.results.map((result) => result.value as Promise<number>))).includes(0),
      'a refused removal',
      10_000,
    );
    expect(await queues.render.getJobState(job.id!)).toBe('active');
    release();
    const outcome = await erasure;
    expect(outcome).toEqual({ keysDeleted: 0, jobsRemoved: 1, problems: [] });
    expect(await Promise.all(removals.mock.results.map((result) => result.value as Promise<number>))).toEqual(expect.arrayContaining([0, 1]));
    removals.mockRestore();
    expect(await queues.render.getJob(job.id!)).toBeUndefined();
    const events = await redis.xrange(queues.render.toKey('events'), '-', '+');
    expect(events.filter(([, fields]) => fields.includes(job.id!))).toEqual([]);
  });

  it('reports a job still running when the wait ends, by queue and id, instead of dropping it', async () => {
    const subject = `prv_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const { started, release } = blockingWorker();
    await queues.render.add('render.screenshots', { previewId: subject }, { jobId: `render-${subject}` });
    const job = await started;
    const outcome = await erase(subject, 300);
    expect(outcome.jobsRemoved).toBe(0);
    expect(outcome.problems).toEqual([expect.stringMatching(new RegExp(`^render/render-${subject}: still running after 300 ms`))]);
    expect(await queues.render.getJobState(job.id!)).toBe('active');
    release();
  });
});
