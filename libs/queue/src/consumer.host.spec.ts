import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { JOB_DEFINITIONS, QUEUE_NAMES, jobsOfQueue, type JobName, type QueueName } from '@mailproof/contracts';
import { ConsumerHost, storeRetryDelayMs, type ConsumerSettings } from './consumer.host';
import type { JobHandler } from './job-handler';

const settings = { concurrency: 1, lockDurationMs: 30_000, stalledIntervalMs: 30_000 };

/** A dispatcher with recording handlers: the code under test is the dispatch, not the handlers. */
class TestConsumer extends ConsumerHost {
  constructor(queue: QueueName, handlers: JobHandler[], overrides: Partial<ConsumerSettings> = {}) {
    super(queue, { ...settings, ...overrides }, handlers);
  }
}

function recordingHandler(jobName: JobName, calls: unknown[]): JobHandler {
  return {
    jobName,
    async handle(payload) {
      calls.push(payload);
      return {} as never;
    },
  };
}

function fakeJob(name: string, data: unknown, overrides: Partial<Job> = {}): Job {
  return { id: 'job-1', name, data, opts: { attempts: 3 }, attemptsMade: 0, timestamp: 1_000, ...overrides } as unknown as Job;
}

/** A valid payload of each job, as its producers build it. */
const VALID: Record<JobName, unknown> = {
  'probe.run': { schemaVersion: 1, nonce: 'n-1' },
  'preview.analyze': { schemaVersion: 1, previewId: 'prv_abc' },
  'fix.run': { schemaVersion: 1, fixRunId: 'fix_abc' },
  'preview-cleanup.run': { schemaVersion: 1 },
  'dns-audit.run': { schemaVersion: 1, domain: 'example.com', dkimSelectors: ['s1'], trigger: 'on-demand', accountId: 'a' },
  'drift-sweep.run': { schemaVersion: 1 },
  'gate.import': { schemaVersion: 1, runId: 'gtr_1' },
  'links.resolve': { schemaVersion: 1, runId: 'gtr_1', deadline: 1_000 },
  'gate.verdict': { schemaVersion: 1, runId: 'gtr_1' },
  'gate.suggest-fix': { schemaVersion: 1, runId: 'gtr_1' },
  'render.screenshots': { schemaVersion: 1, previewId: 'prv_abc', clients: null, modes: ['light', 'dark'] },
  'webhook.deliver': { schemaVersion: 1, deliveryId: '5b0c3f3e-8a59-4d8e-9a53-5d5f0f6c2d11' },
  'webhook-relay.run': { schemaVersion: 1 },
};

describe('ConsumerHost', () => {
  it('refuses to start when a job of the map that runs on its queue has no handler', () => {
    expect(() => new TestConsumer('scheduler', [recordingHandler('probe.run', []), recordingHandler('drift-sweep.run', [])])).toThrow(
      /refusing to start without a handler for preview-cleanup\.run/,
    );
  });

  it('refuses a handler for a job that does not run on its queue', () => {
    const handlers = jobsOfQueue('render').map((name) => recordingHandler(name, []));
    expect(() => new TestConsumer('render', [...handlers, recordingHandler('dns-audit.run', [])])).toThrow(/does not run on this queue/);
  });

  it.each(QUEUE_NAMES.flatMap((queue) => jobsOfQueue(queue).map((name) => [queue, name] as const)))(
    '%s: %s with a wrong schemaVersion or a malformed payload fails as unrecoverable with the reason, and never reaches its handler',
    async (queue, name) => {
      const calls: unknown[] = [];
      const consumer = new TestConsumer(
        queue,
        jobsOfQueue(queue).map((n) => recordingHandler(n, calls)),
      );
      const valid = VALID[name] as Record<string, unknown>;
      await expect(consumer.process(fakeJob(name, { ...valid, schemaVersion: 2 }))).rejects.toThrow(
        new UnrecoverableError(`${name}: unsupported schemaVersion 2 (expected ${JOB_DEFINITIONS[name].schemaVersion})`),
      );
      await expect(consumer.process(fakeJob(name, 'not an object'))).rejects.toBeInstanceOf(UnrecoverableError);
      await expect(consumer.process(fakeJob(name, null))).rejects.toThrow(/the payload is not an object/);
      expect(calls).toEqual([]);
      await consumer.process(fakeJob(name, valid));
      expect(calls).toEqual([valid]);
    },
  );

  it.each<[JobName, Record<string, unknown>, RegExp]>([
    ['preview.analyze', { schemaVersion: 1 }, /previewId must be a non-empty string/],
    ['fix.run', { schemaVersion: 1, fixRunId: '' }, /fixRunId must be a non-empty string/],
    ['probe.run', { schemaVersion: 1, nonce: '' }, /nonce must be a non-empty string/],
    ['dns-audit.run', { ...(VALID['dns-audit.run'] as object), domain: 'Example.COM.' }, /domain is not normalized/],
    ['dns-audit.run', { ...(VALID['dns-audit.run'] as object), dkimSelectors: ['bad selector'] }, /invalid dkimSelectors/],
    ['dns-audit.run', { ...(VALID['dns-audit.run'] as object), trigger: 'whenever' }, /unknown trigger whenever/],
  ])("%s: a payload that fails the job's own check is unrecoverable (%j)", async (name, data, reason) => {
    const queue = JOB_DEFINITIONS[name].queues.find((q) => q !== 'render') ?? 'preview';
    const consumer = new TestConsumer(
      queue,
      jobsOfQueue(queue).map((n) => recordingHandler(n, [])),
    );
    const error = await consumer.process(fakeJob(name, data)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toMatch(reason);
  });

  it('fails a job name it does not know as unrecoverable', async () => {
    const consumer = new TestConsumer('render', [recordingHandler('probe.run', []), recordingHandler('render.screenshots', [])]);
    await expect(consumer.process(fakeJob('render.everything', {}))).rejects.toThrow(new UnrecoverableError('render: unknown job render.everything'));
  });

  it('records the failure for good on the last attempt, before rethrowing, and not on earlier ones', async () => {
    const recorded: string[] = [];
    const failing: JobHandler = {
      jobName: 'preview.analyze',
      handle: () => Promise.reject(new Error('database down')),
      onFinalFailure: async (_payload, cause) => void recorded.push(cause),
    };
    const consumer = new TestConsumer('preview', [
      recordingHandler('probe.run', []),
      recordingHandler('fix.run', []),
      recordingHandler('gate.suggest-fix', []),
      failing,
    ]);
    await expect(consumer.process(fakeJob('preview.analyze', VALID['preview.analyze'], { attemptsMade: 1 }))).rejects.toThrow('database down');
    expect(recorded).toEqual([]);
    await expect(consumer.process(fakeJob('preview.analyze', VALID['preview.analyze'], { attemptsMade: 2 }))).rejects.toThrow('database down');
    expect(recorded).toEqual(['failed']);
  });

  it('gives each handler the moment its job was meant to run (added + delay) and its id', async () => {
    const contexts: unknown[] = [];
    const handler: JobHandler = { jobName: 'drift-sweep.run', handle: async (_p, context) => (contexts.push(context), {} as never) };
    const consumer = new TestConsumer('scheduler', [
      recordingHandler('probe.run', []),
      handler,
      recordingHandler('preview-cleanup.run', []),
      recordingHandler('webhook-relay.run', []),
    ]);
    await consumer.process(fakeJob('drift-sweep.run', VALID['drift-sweep.run'], { timestamp: 5_000, opts: { delay: 250 } } as Partial<Job>));
    expect(contexts).toEqual([{ id: 'job-1', queue: 'scheduler', scheduledFor: 5_250 }]);
  });

  describe('while the store is unavailable', () => {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
    const setUp = (error: () => Error) => {
      const recorded: string[] = [];
      const handler: JobHandler = {
        jobName: 'preview.analyze',
        handle: () => Promise.reject(error()),
        onFinalFailure: async (_p, cause) => void recorded.push(cause),
      };
      const consumer = new TestConsumer(
        'preview',
        [recordingHandler('probe.run', []), recordingHandler('fix.run', []), recordingHandler('gate.suggest-fix', []), handler],
        { storeRetryMs: 60_000 },
      );
      return { consumer, recorded };
    };
    const delayedJob = (overrides: Partial<Job>) => {
      const delays: number[] = [];
      const job = fakeJob('preview.analyze', VALID['preview.analyze'], {
        timestamp: Date.now(),
        attemptsMade: 2,
        attemptsStarted: 3,
        moveToDelayed: async (at: number) => void delays.push(at - Date.now()),
        ...overrides,
      } as Partial<Job>);
      return { job, delays };
    };

    it('puts the job back to wait (no attempt spent, no failure recorded) even on its last attempt', async () => {
      const { consumer, recorded } = setUp(refused);
      const { job, delays } = delayedJob({});
      await expect(consumer.process(job, 'token')).rejects.toBeInstanceOf(DelayedError);
      expect(delays).toHaveLength(1);
      expect(delays[0]).toBeGreaterThan(1_000);
      expect(delays[0]).toBeLessThanOrEqual(2_000);
      expect(recorded).toEqual([]);
    });

    it('stops putting it back once the job is older than storeRetryMs, and never for other errors', async () => {
      const old = setUp(refused);
      await expect(old.consumer.process(delayedJob({ timestamp: Date.now() - 61_000 }).job, 'token')).rejects.toThrow('ECONNREFUSED');
      expect(old.recorded).toEqual(['failed']);
      const other = setUp(() => Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }));
      await expect(other.consumer.process(delayedJob({}).job, 'token')).rejects.toThrow('duplicate key');
      expect(other.recorded).toEqual(['failed']);
    });

    it('waits 500 ms doubling to at most 5 s between tries', () => {
      expect([1, 2, 3, 4, 5, 6, 10].map(storeRetryDelayMs)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
    });
  });
});
