import type { Queue } from 'bullmq';
import type { MailproofConfig } from '@mailproof/config';
import type { QueueName } from '@mailproof/contracts';
import { startAppProcess, type AppProcess } from './app-process';
import { waitFor } from './wait';

/**
 * Starts a built worker-preview as a real process on the test's queue prefix (migrations already run by
 * the test's set-up) with `env` on top, and waits until it consumes each of `consumes`.
 */
export async function startWorkerPreview(
  config: MailproofConfig,
  queues: Record<QueueName, Queue>,
  env: Record<string, string> = {},
  consumes: QueueName[] = ['preview'],
): Promise<AppProcess> {
  const worker = startAppProcess('worker-preview', { QUEUE_PREFIX: queuePrefixVariable(config), MIGRATE_ON_START: 'false', ...env });
  await waitFor(
    async () => (await Promise.all(consumes.map((queue) => queues[queue].getWorkers()))).every((workers) => workers.length >= 1),
    `a worker-preview process to consume ${consumes.join(', ')}`,
    30_000,
  );
  return worker;
}

/** QUEUE_PREFIX that gives a process the same prefix as `config` (on a Redis Cluster the config wraps it in a hash tag). */
export function queuePrefixVariable(config: MailproofConfig): string {
  return config.queue.prefix.replace(/^\{(.*)\}$/, '$1');
}
