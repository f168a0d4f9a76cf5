import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { awaitJob, queueRedisClient, redisOptionsFromUrl, requestPathRedisOptions } from '@mailproof/queue';
import { TestRedisServer } from '../utils/redis-server';
import { sleep, waitFor } from '../utils/wait';

// awaitJob is how every request waits for its job (previews, gates, audits, screenshots). It must answer
// within its budget whatever Redis does, and never leave a rejection unhandled: an unhandled rejection ends
// the process (the scale harness saw an API replica die of BullMQ's waitUntilFinished under load).
describe('awaitJob against a real Redis', () => {
  let redis: TestRedisServer;
  let queue: Queue;
  let events: QueueEvents;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const workers: Worker[] = [];

  const work = (handler: (job: Job) => Promise<unknown>) => {
    const worker = new Worker('await', handler, { connection: redisOptionsFromUrl(redis.url), prefix: 'aw' });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    redis = await TestRedisServer.start();
    // The API's request-path options: a command Redis does not answer fails after 300 ms.
    queue = new Queue('await', { connection: requestPathRedisOptions(redis.url, 300), prefix: 'aw' });
    events = new QueueEvents('await', { connection: redisOptionsFromUrl(redis.url), prefix: 'aw' });
    await events.waitUntilReady();
    process.on('unhandledRejection', onUnhandled);
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    redis.thaw();
    for (const worker of workers) await worker.close(true);
    await events.close();
    await queue.close();
    await redis.destroy();
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.close(true);
  });

  // The one adapter over BullMQ's client (libs/queue/src/queue-redis-client.ts): an upgrade of BullMQ that stops
  // handing out the ioredis instance fails here, before the account erasure that relies on it.
  it("reaches the queue's ioredis client with the commands BullMQ's interface does not list", async () => {
    const client = await queueRedisClient(queue);
    expect(client).toBeInstanceOf(Redis);
    await client.sadd('aw:adapter-check', 'a');
    expect(await client.smembers('aw:adapter-check')).toEqual(['a']);
    expect(await client.publish('aw:adapter-channel', 'x')).toBe(0);
    await client.del('aw:adapter-check');
  });

  it('answers completed with the return value when the job finishes during the wait', async () => {
    work(async (job) => ({ doubled: (job.data as { n: number }).n * 2 }));
    const job = await queue.add('double', { n: 21 });
    await expect(awaitJob(job, queue, events, 10_000)).resolves.toEqual({ status: 'completed', result: { doubled: 42 } });
  });

  it('answers from the stored state when the job finished before the wait began', async () => {
    const worker = work(async () => ({ early: true }));
    const job = await queue.add('early', {});
    await waitFor(async () => (await job.getState()) === 'completed', 'the job to complete', 10_000, 50);
    await worker.close();
    await expect(awaitJob(job, queue, events, 5_000)).resolves.toEqual({ status: 'completed', result: { early: true } });
  });

  it('answers failed with the reason when the job fails', async () => {
    work(async () => {
      throw new Error('the template exceeded its memory limit');
    });
    const job = await queue.add('fail', {}, { attempts: 1 });
    await expect(awaitJob(job, queue, events, 10_000)).resolves.toEqual({ status: 'failed', reason: 'the template exceeded its memory limit' });
  });

  it('answers timeout within its budget when no worker takes the job', async () => {
    const job = await queue.add('nobody', {});
    const started = Date.now();
    await expect(awaitJob(job, queue, events, 400)).resolves.toEqual({ status: 'timeout', jobId: String(job.id) });
    // It waited for its budget (a timer may fire a millisecond before Date.now() shows the full 400).
    expect(Date.now() - started).toBeGreaterThanOrEqual(398);
    await job.remove();
  });

  it('answers timeout and leaves no rejection unhandled when Redis stops answering during the wait', async () => {
    const job = await queue.add('frozen', {});
    redis.freeze();
    try {
      // The state read times out after 300 ms ("Command timed out"); the budget's timer answers.
      await expect(awaitJob(job, queue, events, 1_000)).resolves.toEqual({ status: 'timeout', jobId: String(job.id) });
      await sleep(300);
      expect(unhandled).toEqual([]);
    } finally {
      redis.thaw();
    }
  });
});
