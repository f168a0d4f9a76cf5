import { Queue, Worker, type Job } from 'bullmq';
import { previewAnalyzeJob, QUEUE_NAMES, RENDER_MODES, renderScreenshotsJob, type QueueName } from '@mailproof/contracts';
import { JobProducer, redisOptionsFromUrl } from '@mailproof/queue';
import { TestRedisServer } from '../utils/redis-server';
import { waitFor } from '../utils/wait';

// The render queue runs its jobs in the order they became ready (RENDER_JOB_PRIORITY in
// libs/contracts/src/jobs/render.job.ts). A render job in a chain (a gate run with `visual`, a preview with
// screenshots) is a BullMQ flow parent: when its analysis completes, BullMQ put it at the end of the wait list
// workers take from, so the newest ready job ran first and, under a steady stream of runs, an older one waited
// until the stream stopped (the gate's runs answered 503 at the visual budget while the pipeline finished one
// run every 2.5 s; docs/gate.md). Real Redis and BullMQ, the project's JobProducer and job builders; the workers
// only record the order in which the queue hands the jobs out.
describe('render queue order (real Redis, BullMQ flows)', () => {
  let redis: TestRedisServer;
  let queues: Record<QueueName, Queue>;
  let producer: JobProducer;
  const workers: Worker[] = [];
  const prefix = 'rqo';

  beforeAll(async () => {
    redis = await TestRedisServer.start();
    queues = Object.fromEntries(QUEUE_NAMES.map((name) => [name, new Queue(name, { connection: redisOptionsFromUrl(redis.url), prefix })])) as Record<
      QueueName,
      Queue
    >;
    producer = new JobProducer(queues.preview, queues.render, queues['dns-audit'], queues.scheduler, queues.gate, queues['link-check'], queues.webhook);
  });

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.close(true);
    for (const queue of Object.values(queues)) await queue.obliterate({ force: true });
  });

  afterAll(async () => {
    await producer.onModuleDestroy();
    for (const queue of Object.values(queues)) await queue.close();
    await redis.destroy();
  });

  /** A worker of one job at a time that records the preview id of each job it is handed, in order. */
  const recordingWorker = (queue: QueueName, order: string[]) => {
    const worker = new Worker(
      queue,
      async (job: Job<{ previewId: string }>) => {
        order.push(job.data.previewId);
        return {};
      },
      { connection: redisOptionsFromUrl(redis.url), prefix, concurrency: 1 },
    );
    workers.push(worker);
    return worker;
  };

  /** Until `count` render jobs wait for a worker (in the wait list or the prioritized set). */
  const renderJobsReady = (count: number) =>
    waitFor(
      async () => {
        const counts = await queues.render.getJobCounts('prioritized', 'wait');
        return counts.prioritized + counts.wait >= count;
      },
      'the render jobs to be ready',
      20_000,
      50,
    );

  it('runs chained render jobs in the order their analyses completed, not the newest first', async () => {
    const previews = ['prv_order_a', 'prv_order_b', 'prv_order_c', 'prv_order_d'];
    // As the gate adds a run with `visual` (apps/api/src/gate/gate.service.ts) and a preview with screenshots: analyze > render.
    for (const previewId of previews) await producer.enqueueChain([previewAnalyzeJob(previewId), renderScreenshotsJob(previewId, ['gmail-web'], RENDER_MODES)]);
    const analyzed: string[] = [];
    const analysis = recordingWorker('preview', analyzed);
    await renderJobsReady(previews.length);
    await analysis.close();
    expect(analyzed).toEqual(previews);

    const rendered: string[] = [];
    recordingWorker('render', rendered);
    await waitFor(async () => rendered.length === previews.length, 'every render job to run', 20_000, 50);
    // Before RENDER_JOB_PRIORITY: d, c, b, a (each parent pushed to the end the worker takes from).
    expect(rendered).toEqual(analyzed);
  });

  it('keeps a render job asked for on its own ahead of chained ones that became ready after it', async () => {
    // POST /api/preview/:id/screenshots adds its render job on its own; a gate run's becomes ready later.
    await producer.enqueue(renderScreenshotsJob('prv_alone', null, RENDER_MODES));
    await producer.enqueueChain([previewAnalyzeJob('prv_chained'), renderScreenshotsJob('prv_chained', null, RENDER_MODES)]);
    const analyzed: string[] = [];
    const analysis = recordingWorker('preview', analyzed);
    await renderJobsReady(2);
    await analysis.close();

    const rendered: string[] = [];
    recordingWorker('render', rendered);
    await waitFor(async () => rendered.length === 2, 'both render jobs to run', 20_000, 50);
    // Before: the chained job, pushed to the taking end of the wait list, overtook the one asked for first.
    expect(rendered).toEqual(['prv_alone', 'prv_chained']);
  });
});
