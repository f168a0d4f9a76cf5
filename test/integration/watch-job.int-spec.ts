import { QueueEvents, Worker } from 'bullmq';
import { bullConnection, redisOptionsFromUrl, watchJob } from '@mailproof/queue';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

// watchJob listens for a job before it is added (a fresh preview's analysis), so it never asks Redis
// whether the job finished already: here with a real queue, QueueEvents and worker on Redis.
describe('watchJob: waiting on a job whose listeners come before it (real Redis, BullMQ)', () => {
  const config = testConfig({ QUEUE_PREFIX: `watch-job-${process.pid}` });
  const queues = openQueues(config);
  const connection = () => bullConnection(config.redis, redisOptionsFromUrl(config.redis.url));
  let events: QueueEvents;
  let worker: Worker;

  beforeAll(async () => {
    events = new QueueEvents('render', { connection: connection(), prefix: config.queue.prefix });
    await events.waitUntilReady();
    worker = new Worker(
      'render',
      async (job) => {
        if (job.data.fail) throw new Error(`refused ${job.id}`);
        return { echoed: job.data.value };
      },
      { connection: connection(), prefix: config.queue.prefix, autorun: false },
    );
  });
  afterAll(async () => {
    await worker.close();
    await events.close();
    await queues.closeAll();
  });

  it('hears the completion of a job that finishes at once, with its return value, and leaves no listener behind', async () => {
    void worker.run();
    const watch = watchJob<{ echoed: string }>(events, 'quick-1', 30_000);
    await queues.render.add('quick', { value: 'ü 🙂' }, { jobId: 'quick-1' });
    expect(await watch.outcome).toEqual({ status: 'completed', result: { echoed: 'ü 🙂' } });
    expect(events.listenerCount('completed:quick-1')).toBe(0);
    expect(events.listenerCount('failed:quick-1')).toBe(0);
  });

  it('reports a job that fails for good with its reason', async () => {
    const watch = watchJob(events, 'fails-1', 30_000);
    await queues.render.add('fails', { fail: true }, { jobId: 'fails-1', attempts: 1 });
    expect(await watch.outcome).toEqual({ status: 'failed', reason: 'refused fails-1' });
  });

  it('ends at the budget when nobody finishes the job, and at once when canceled', async () => {
    await worker.pause();
    const started = Date.now();
    const watch = watchJob(events, 'slow-1', 300);
    await queues.render.add('slow', {}, { jobId: 'slow-1' });
    expect(await watch.outcome).toEqual({ status: 'timeout', jobId: 'slow-1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const canceled = watchJob(events, 'never-1', 60_000);
    canceled.cancel();
    expect(await canceled.outcome).toEqual({ status: 'timeout', jobId: 'never-1' });
    expect(events.listenerCount('completed:never-1')).toBe(0);
    expect(await watchJob(events, 'no-budget', 0).outcome).toEqual({ status: 'timeout', jobId: 'no-budget' });
  });
});
