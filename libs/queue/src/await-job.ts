import { Job, type QueueEvents } from 'bullmq';

export type AwaitedJob<R> =
  | { status: 'completed'; result: R }
  | { status: 'failed'; reason: string }
  | { status: 'timeout'; jobId: string };

/**
 * Waits for a job within a budget and never hangs or throws: the job's completed/failed events on the
 * shared QueueEvents, a timer for the budget, and one read of the job's state for a job that finished
 * before the listeners were on.
 *
 * Not BullMQ's `job.waitUntilFinished`: it reads the job's state inside an `async` Promise executor, so
 * a Redis command that fails there (ioredis "Command timed out" under load, a dropped connection) is an
 * unhandled rejection, and an unhandled rejection ends the process (found by the scale harness: an API
 * replica died of it). Here every Redis error of the wait is caught and the events or the timer answer.
 */
export function awaitJob<R>(job: Job, queueEvents: QueueEvents, budgetMs: number): Promise<AwaitedJob<R>> {
  const jobId = String(job.id);
  if (budgetMs <= 0) return Promise.resolve({ status: 'timeout', jobId });
  const completedEvent = `completed:${jobId}`;
  const failedEvent = `failed:${jobId}`;
  return new Promise<AwaitedJob<R>>((resolve) => {
    const finish = (answer: AwaitedJob<R>) => {
      clearTimeout(timer);
      queueEvents.off(completedEvent, onCompleted);
      queueEvents.off(failedEvent, onFailed);
      resolve(answer);
    };
    // QueueEvents has already parsed the return value.
    const onCompleted = (args: { returnvalue: unknown }) => finish({ status: 'completed', result: args.returnvalue as R });
    const onFailed = (args: { failedReason: string }) => finish({ status: 'failed', reason: args.failedReason });
    const timer = setTimeout(() => finish({ status: 'timeout', jobId }), budgetMs);
    queueEvents.on(completedEvent, onCompleted);
    queueEvents.on(failedEvent, onFailed);
    finishedAlready<R>(job, queueEvents).then(
      (answer) => answer && finish(answer),
      () => undefined, // Redis trouble: the events, or else the timer, answer.
    );
  });
}

/** The job's outcome when it finished before anyone listened; null while it is still to run. */
async function finishedAlready<R>(job: Job, queueEvents: QueueEvents): Promise<AwaitedJob<R> | null> {
  // Only once QueueEvents listens can a finish between this read and the events not be missed.
  await queueEvents.waitUntilReady();
  const state = await job.getState();
  if (state !== 'completed' && state !== 'failed') return null;
  // The job object was created by add(); its stored outcome is read afresh. BullMQ keeps the job's queue
  // protected; Job.fromId needs it.
  const stored = await Job.fromId((job as unknown as { queue: Parameters<typeof Job.fromId>[0] }).queue, String(job.id));
  if (!stored) return null;
  return state === 'completed' ? { status: 'completed', result: stored.returnvalue as R } : { status: 'failed', reason: stored.failedReason };
}
