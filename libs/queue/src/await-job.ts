import type { Job, QueueEvents } from 'bullmq';

export type AwaitedJob<R> =
  | { status: 'completed'; result: R }
  | { status: 'failed'; reason: string }
  | { status: 'timeout'; jobId: string };

/**
 * Waits for a job within a budget and never hangs: BullMQ's own TTL is backed by a timer of ours,
 * so even a lost Redis connection ends the wait on time. A job that finished before the wait
 * started is answered from its stored state.
 */
export async function awaitJob<R>(job: Job, queueEvents: QueueEvents, budgetMs: number): Promise<AwaitedJob<R>> {
  const jobId = String(job.id);
  if (budgetMs <= 0) return { status: 'timeout', jobId };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<AwaitedJob<R>>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout', jobId }), budgetMs + 50);
  });
  const finished = job
    .waitUntilFinished(queueEvents, budgetMs)
    .then((result): AwaitedJob<R> => ({ status: 'completed', result: result as R }))
    .catch((error: unknown): AwaitedJob<R> => {
      const message = error instanceof Error ? error.message : String(error);
      // BullMQ reports its own TTL expiry as an error whose message says "timed out".
      if (/timed out before finishing/i.test(message)) return { status: 'timeout', jobId };
      return { status: 'failed', reason: message };
    });
  try {
    return await Promise.race([finished, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A wait on a job that is about to be added: `outcome` settles as awaitJob's does; `cancel()` ends it (the add failed). */
export interface JobWatch<R> {
  outcome: Promise<AwaitedJob<R>>;
  cancel(): void;
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
    return { outcome, cancel: () => undefined };
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
  return { outcome, cancel: () => finish({ status: 'timeout', jobId }) };
}
