/** The BullMQ queues. Names are kebab-case nouns; they never contain ':' (BullMQ's key separator). */
export const QUEUE_NAMES = ['preview', 'render', 'dns-audit', 'scheduler', 'gate', 'link-check', 'webhook'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export function isQueueName(value: string): value is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(value);
}
