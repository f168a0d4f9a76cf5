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
