import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import type { QueueName } from '@mailproof/contracts';
import { redisOptionsFromUrl } from './redis-connection';

/**
 * One long-lived QueueEvents per queue per process, created on first use. Request handlers
 * share it to await jobs; creating one per request would open a Redis connection each time.
 */
@Injectable()
export class QueueEventsRegistry implements OnModuleDestroy {
  private readonly logger = new Logger('QueueEvents');
  private readonly events = new Map<QueueName, Promise<QueueEvents>>();
  private readonly listeners: Array<(queue: QueueName, events: QueueEvents) => void> = [];

  constructor(private readonly config: MailproofConfig) {}

  get(queue: QueueName): Promise<QueueEvents> {
    let pending = this.events.get(queue);
    if (!pending) {
      const events = new QueueEvents(queue, {
        connection: redisOptionsFromUrl(this.config.redis.url),
        prefix: this.config.queue.prefix,
      });
      events.on('error', (error) => this.logger.warn(`queue events ${queue}: ${error.message}`));
      for (const listener of this.listeners) listener(queue, events);
      pending = events.waitUntilReady().then(() => events);
      this.events.set(queue, pending);
    }
    return pending;
  }

  /** Lets observers (metrics) attach to every QueueEvents this process creates. */
  onCreate(listener: (queue: QueueName, events: QueueEvents) => void): void {
    this.listeners.push(listener);
  }

  async onModuleDestroy(): Promise<void> {
    const all = [...this.events.values()];
    this.events.clear();
    await Promise.all(all.map(async (pending) => (await pending.catch(() => undefined))?.close()));
  }
}
