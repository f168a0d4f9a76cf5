import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { WebhookDeliverHandler } from './webhook-deliver.handler';

/** The `webhook` queue's dispatcher (worker-dns consumes it: see docs/architecture.md). */
@Processor('webhook', { autorun: false })
export class WebhookProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, deliver: WebhookDeliverHandler) {
    super('webhook', config.consumerSettings(config.webhooks.concurrency), [probeJobHandler((row) => probes.record(row)), deliver]);
  }
}
