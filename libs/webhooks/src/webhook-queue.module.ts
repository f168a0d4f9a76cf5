import { Module } from '@nestjs/common';
import { WebhookQueue } from './webhook.queue';

/**
 * `WebhookQueue` for the apps that record webhook deliveries (api, worker-preview, worker-dns, scheduler).
 * Import it beside `QueueModule` or `ApiQueueModule`, whose global `JobProducer` it queues with.
 */
@Module({
  providers: [WebhookQueue],
  exports: [WebhookQueue],
})
export class WebhookQueueModule {}
