import { Injectable } from '@nestjs/common';
import type { WebhookRelayJobResult } from '@mailproof/contracts';
import type { JobHandler } from '@mailproof/queue';
import { WebhookRelayService } from './webhook-relay.service';

/** `webhook-relay.run`: queue webhook deliveries that were stored but never attempted. */
@Injectable()
export class WebhookRelayHandler implements JobHandler<'webhook-relay.run'> {
  readonly jobName = 'webhook-relay.run';

  constructor(private readonly relay: WebhookRelayService) {}

  handle(): Promise<WebhookRelayJobResult> {
    return this.relay.relay();
  }
}
