import { Job, type Queue, type QueueEvents } from 'bullmq';

export type AwaitedJob<R> = { status: 'completed'; result: R } | { status: 'failed'; reason: string } | { status: 'timeout'; jobId: string };

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
export function awaitJob<R>(job: Job, queue: Queue, queueEvents: QueueEvents, budgetMs: number): Promise<AwaitedJob<R>> {
  const watch = watchJob<R>(queueEvents, String(job.id), budgetMs);
  if (budgetMs <= 0) return watch.outcome;
  finishedAlready<R>(job, queue, queueEvents).then(
    (answer) => answer && watch.settle(answer),
    () => undefined, // Redis trouble: the events, or else the budget's timer, answer.
  );
  return watch.outcome;
}

/** The job's outcome when it finished before anyone listened; null while it is still to run. */
async function finishedAlready<R>(job: Job, queue: Queue, queueEvents: QueueEvents): Promise<AwaitedJob<R> | null> {
  // Only once QueueEvents listens can a finish between this read and the events not be missed.
  await queueEvents.waitUntilReady();
  const state = await job.getState();
  if (state !== 'completed' && state !== 'failed') return null;
  // The job object was created by add(); its stored outcome is read afresh, through its queue (BullMQ keeps the
  // job's own reference to it protected).
  const stored = await Job.fromId(queue, String(job.id));
  if (!stored) return null;
  return state === 'completed' ? { status: 'completed', result: stored.returnvalue as R } : { status: 'failed', reason: stored.failedReason };
}

/** A wait on a job that is about to be added: `outcome` settles as awaitJob's does; `cancel()` ends it (the add failed). */
export interface JobWatch<R> {
  outcome: Promise<AwaitedJob<R>>;
  cancel(): void;
  /** Ends the wait with an answer learnt another way (awaitJob's read of a job that finished already). */
  settle(answer: AwaitedJob<R>): void;
}

/**
 * awaitJob for a job not added yet, whose id is new (a fresh preview's analysis): its listeners are on
 * `queueEvents` before the job exists, so no event of it can be missed and there is no need to ask
 * Redis whether it finished already (awaitJob's extra round trip, one per preview). The budget counts
 * from now; `queueEvents` must be ready (QueueEventsRegistry.getWithin).
 */
export function watchJob<R>(queueEvents: QueueEvents, jobId: string, budgetMs: number): JobWatch<R> {
  let settle: (outcome: AwaitedJob<R>) => void = () => undefined;
  const outcome = new Promise<AwaitedJob<R>>((resolve) => {
    settle = resolve;
  });
  if (budgetMs <= 0) {
    settle({ status: 'timeout', jobId });
    return { outcome, cancel: () => undefined, settle: () => undefined };
  }
  const completedEvent = `completed:${jobId}`;
  const failedEvent = `failed:${jobId}`;
  const finish = (result: AwaitedJob<R>) => {
    clearTimeout(timer);
    queueEvents.removeListener(completedEvent, onCompleted);
    queueEvents.removeListener(failedEvent, onFailed);
    settle(result);
  };
  const onCompleted = ({ returnvalue }: { returnvalue: unknown }) => finish({ status: 'completed', result: returnvalue as R });
  const onFailed = ({ failedReason }: { failedReason: string }) => finish({ status: 'failed', reason: failedReason });
  const timer = setTimeout(() => finish({ status: 'timeout', jobId }), budgetMs);
  queueEvents.on(completedEvent as 'completed', onCompleted as never);
  queueEvents.on(failedEvent as 'failed', onFailed as never);
  return { outcome, cancel: () => finish({ status: 'timeout', jobId }), settle: finish };
}
