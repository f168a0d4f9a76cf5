import { Queue } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '@mailproof/contracts';
import type { MailproofConfig } from '@mailproof/config';
import { bullConnection, redisOptionsFromUrl } from '@mailproof/queue';

/** Direct BullMQ handles on the test's queues, for assertions and cleanup. */
export function openQueues(config: MailproofConfig): Record<QueueName, Queue> & { closeAll(obliterate?: boolean): Promise<void> } {
  const queues = Object.fromEntries(
    QUEUE_NAMES.map((name) => [
      name,
      new Queue(name, { connection: bullConnection(config.redis, redisOptionsFromUrl(config.redis.url)), prefix: config.queue.prefix }),
    ]),
  ) as Record<QueueName, Queue>;
  return Object.assign(queues, {
    async closeAll(obliterate = true) {
      for (const queue of QUEUE_NAMES.map((name) => queues[name])) {
        if (obliterate) await queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
      }
    },
  });
}

/**
 * How many times each job of `queue` was taken by a worker, from the queue's event stream (one `active` entry per
 * attempt, a redelivery after a stall or a put-back included). Unlike a job's attemptsStarted it survives the job:
 * a preview's analysis leaves Redis when it completes (previewAnalyzeJob).
 */
export async function activationsByJob(queue: Queue): Promise<Map<string, number>> {
  const client = await queue.getBackend().client;
  // The whole stream from its start (XREAD answers [[key, [[id, [field, value, ...]], ...]]]).
  const reply = (await client.xread([{ key: queue.keys.events, id: '0' }], { COUNT: 1_000_000 })) as Array<[string, Array<[string, string[]]>]> | null;
  const taken = new Map<string, number>();
  for (const [, fields] of reply?.[0]?.[1] ?? []) {
    const event = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) event.set(fields[i], fields[i + 1]);
    const jobId = event.get('jobId');
    if (event.get('event') === 'active' && jobId) taken.set(jobId, (taken.get(jobId) ?? 0) + 1);
  }
  return taken;
}
