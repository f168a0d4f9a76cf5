import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import type { WebhookDeliverJobResult } from '@mailproof/contracts';
import { SsrfGuard } from '@mailproof/net-guard';
import { WebhookRepository } from '@mailproof/persistence';
import { sendWebhook } from './webhook-sender';

/**
 * Sends one delivery per job attempt and logs it on its row (attempts, last status, last error). A
 * failed attempt throws, so BullMQ retries it with the configured backoff; a refused destination is not
 * retried. When the last attempt failed, the delivery is failed and its endpoint counts one more failure
 * in a row (disabled at WEBHOOK_DISABLE_AFTER). A delivery that is no longer pending (a redelivered job)
 * is never sent again.
 */
@Injectable()
export class WebhookDeliveryService implements OnModuleDestroy {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly guard: SsrfGuard;

  constructor(
    private readonly config: MailproofConfig,
    private readonly webhooks: WebhookRepository,
  ) {
    this.guard = new SsrfGuard({ allowedAddresses: config.netGuard.allowedAddresses });
  }

  async deliver(deliveryId: string): Promise<WebhookDeliverJobResult> {
    const work = await this.webhooks.findWork(deliveryId);
    if (!work) return { deliveryId, status: 'canceled', httpStatus: null };
    const { delivery, endpoint, event } = work;
    if (delivery.status !== 'pending') return { deliveryId, status: delivery.status, httpStatus: delivery.lastStatus };
    if (endpoint.status !== 'enabled') {
      await this.webhooks.markCanceled(deliveryId, `not sent: the endpoint was disabled (${endpoint.disabledReason ?? 'no reason recorded'})`);
      return { deliveryId, status: 'canceled', httpStatus: null };
    }
    const at = new Date();
    const attempt = await sendWebhook(
      this.guard,
      endpoint.url,
      { id: event.id, body: JSON.stringify(event.payload), secret: endpoint.secret },
      this.config.webhooks.timeoutMs,
      at,
    );
    if (attempt.outcome === 'delivered') {
      await this.webhooks.markDelivered(deliveryId, { httpStatus: attempt.httpStatus, at });
      return { deliveryId, status: 'delivered', httpStatus: attempt.httpStatus };
    }
    await this.webhooks.recordAttempt(deliveryId, { httpStatus: attempt.httpStatus, error: attempt.error, at });
    if (attempt.outcome === 'declined') throw new UnrecoverableError(attempt.error);
    throw new Error(attempt.error);
  }

  /** Every attempt failed (or the destination was refused): the delivery fails and may disable its endpoint. */
  async recordFinalFailure(deliveryId: string): Promise<void> {
    const { disableAfter } = this.config.webhooks;
    const disabled = await this.webhooks.markFailed(
      deliveryId,
      disableAfter,
      (failures, lastError) => `${failures} deliveries in a row failed on every attempt${lastError ? `; last error: ${lastError}` : ''}`,
    );
    if (disabled) this.logger.warn(`webhook endpoint of delivery ${deliveryId} disabled after ${disableAfter} failed deliveries in a row`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.guard.close();
  }
}
