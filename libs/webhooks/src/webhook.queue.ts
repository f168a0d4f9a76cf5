import { Injectable, Logger } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { webhookDeliverJob } from '@mailproof/contracts';
import { JobProducer } from '@mailproof/queue';

/**
 * Queues webhook deliveries (`webhook.deliver`, one job per delivery, its id the delivery's) with the
 * configured retry schedule. Producers call it after committing the transaction that recorded the
 * deliveries. A failure to queue is logged, not thrown: the deliveries are stored, and the scheduler's
 * relay (`webhook-relay.run`) queues deliveries that were never attempted.
 */
@Injectable()
export class WebhookQueue {
  private readonly logger = new Logger('WebhookQueue');

  constructor(
    private readonly jobs: JobProducer,
    private readonly config: MailproofConfig,
  ) {}

  async queueDeliveries(deliveryIds: readonly string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    const retry = { attempts: this.config.webhooks.attempts, backoffMs: this.config.webhooks.backoffMs };
    try {
      await this.jobs.enqueueBulk(deliveryIds.map((id) => webhookDeliverJob(id, retry)));
    } catch (error) {
      this.logger.warn(
        `${deliveryIds.length} webhook deliveries stored but not queued (the relay will queue them): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
