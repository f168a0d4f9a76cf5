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
