import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { QueueModule } from '@mailproof/queue';
import { WebhookQueueModule } from '@mailproof/webhooks';
import { TangerineResolver } from './adapters/tangerine.resolver';
import { DnsAuditHandler } from './dns-audit.handler';
import { DnsAuditProcessor } from './dns-audit.processor';
import { DnsAuditService } from './dns-audit.service';
import { DNS_RESOLVER } from './dns-resolver.token';
import { WebhookDeliverHandler } from './webhooks/webhook-deliver.handler';
import { WebhookDeliveryService } from './webhooks/webhook-delivery.service';
import { WebhookProcessor } from './webhooks/webhook.processor';

/**
 * The worker-dns app: no HTTP; consumes the `dns-audit` queue (audits domains over DNS over HTTPS) and
 * the `webhook` queue (signed webhook deliveries): both are small network-bound jobs.
 */
@Module({})
export class WorkerDnsAppModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: WorkerDnsAppModule,
      imports: [ConfigModule.forRoot(config), createLoggerModule(config, 'worker-dns'), PersistenceModule, QueueModule, WebhookQueueModule],
      providers: [
        DnsAuditProcessor,
        DnsAuditHandler,
        DnsAuditService,
        TangerineResolver,
        { provide: DNS_RESOLVER, useExisting: TangerineResolver },
        WebhookProcessor,
        WebhookDeliverHandler,
        WebhookDeliveryService,
      ],
    };
  }
}
