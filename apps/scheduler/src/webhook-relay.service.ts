import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { WEBHOOK_RELAY_JOB, type WebhookRelayJobPayload, type WebhookRelayJobResult } from '@mailproof/contracts';
import { WebhookRepository } from '@mailproof/persistence';
import { upsertRepeatingJob } from '@mailproof/queue';
import { WebhookQueue } from '@mailproof/webhooks';

export const WEBHOOK_RELAY_SCHEDULER_ID = 'webhook-relay';

/** Deliveries queued per relay run at most; the next run takes the rest. */
const RELAY_BATCH = 1_000;

/**
 * The outbox relay of webhook deliveries (docs/webhooks.md). Producers record deliveries in the
 * transaction of what caused them and queue them after the commit; a producer that died in between
 * leaves them stored but unqueued. Every WEBHOOK_RELAY_EVERY_SECONDS this queues the pending deliveries
 * never attempted that are older than one relay interval. Queueing one that is already queued is a
 * no-op (its job id is the delivery's), so the relay never causes a second delivery.
 */
@Injectable()
export class WebhookRelayService implements OnApplicationBootstrap {
  private readonly logger = new Logger('WebhookRelay');

  constructor(
    private readonly config: MailproofConfig,
    private readonly webhooks: WebhookRepository,
    private readonly deliveries: WebhookQueue,
    @InjectQueue('scheduler') private readonly queue: Queue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const data: WebhookRelayJobPayload = { schemaVersion: 1 };
    await upsertRepeatingJob(this.queue, WEBHOOK_RELAY_SCHEDULER_ID, this.config.webhooks.relayEveryMs, WEBHOOK_RELAY_JOB.name, data);
  }

  async relay(): Promise<WebhookRelayJobResult> {
    const ids = await this.webhooks.unattemptedDeliveries(this.config.webhooks.relayEveryMs, RELAY_BATCH);
    await this.deliveries.queueDeliveries(ids);
    if (ids.length > 0) this.logger.log(`queued ${ids.length} webhook deliveries that were never attempted`);
    return { queued: ids.length };
  }
}
