import { Injectable } from '@nestjs/common';
import type { WebhookDeliverJobPayload, WebhookDeliverJobResult } from '@mailproof/contracts';
import type { JobHandler } from '@mailproof/queue';
import { WebhookDeliveryService } from './webhook-delivery.service';

/** `webhook.deliver`: one signed POST per attempt; the delivery row is the log (docs/webhooks.md). */
@Injectable()
export class WebhookDeliverHandler implements JobHandler<'webhook.deliver'> {
  readonly jobName = 'webhook.deliver';

  constructor(private readonly deliveries: WebhookDeliveryService) {}

  handle(payload: WebhookDeliverJobPayload): Promise<WebhookDeliverJobResult> {
    return this.deliveries.deliver(payload.deliveryId);
  }

  onFinalFailure(payload: WebhookDeliverJobPayload): Promise<void> {
    return this.deliveries.recordFinalFailure(payload.deliveryId);
  }
}
