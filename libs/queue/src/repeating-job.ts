import type { Queue } from 'bullmq';

/**
 * Registers (or updates) a BullMQ job scheduler that adds `name` every `everyMs`. Upserting by a
 * fixed id is idempotent: any number of scheduler replicas and restarts leave exactly one
 * schedule in Redis, and a changed interval replaces the old one.
 */
export async function upsertRepeatingJob(queue: Queue, schedulerId: string, everyMs: number, name: string, data: object): Promise<void> {
  await queue.upsertJobScheduler(
    schedulerId,
    { every: everyMs },
    {
      name,
      data,
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 1_000 }, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
    },
  );
}
