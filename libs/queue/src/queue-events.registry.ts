import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import type { QueueName } from '@mailproof/contracts';
import { withDeadline } from './deadline';
import { QueueUnavailableError } from './queue-unavailable.error';
import { bullConnection, redisOptionsFromUrl } from './redis-connection';

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
        connection: bullConnection(this.config.redis, redisOptionsFromUrl(this.config.redis.url)),
        prefix: this.config.queue.prefix,
      });
      events.on('error', (error) => this.logger.warn(`queue events ${queue}: ${error.message}`));
      for (const listener of this.listeners) listener(queue, events);
      pending = events.waitUntilReady().then(() => events);
      this.events.set(queue, pending);
      // A QueueEvents that failed to start is not kept: the next caller creates a fresh one.
      pending.catch(() => {
        if (this.events.get(queue) === pending) this.events.delete(queue);
        void events.close().catch(() => undefined);
      });
    }
    return pending;
  }

  /**
   * get() for a request: when the queue's events are not ready within `deadlineMs` (Redis down
   * since this process started) it throws QueueUnavailableError. The QueueEvents keeps connecting
   * in the background, so the next request after Redis is back finds it ready.
   */
  getWithin(queue: QueueName, deadlineMs: number): Promise<QueueEvents> {
    return withDeadline(this.get(queue), deadlineMs, () => new QueueUnavailableError(queue, `its events did not connect within ${deadlineMs} ms`)).catch(
      (error: unknown) => {
        throw error instanceof QueueUnavailableError ? error : new QueueUnavailableError(queue, error instanceof Error ? error.message : String(error));
      },
    );
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
