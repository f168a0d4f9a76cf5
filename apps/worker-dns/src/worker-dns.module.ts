import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { QueueModule } from '@mailproof/queue';
import { TangerineResolver } from './adapters/tangerine.resolver';
import { DnsAuditHandler } from './dns-audit.handler';
import { DnsAuditProcessor } from './dns-audit.processor';
import { DnsAuditService } from './dns-audit.service';
import { DNS_RESOLVER } from './dns-resolver.token';

/** The worker-dns app: no HTTP, consumes the `dns-audit` queue and audits domains over DNS over HTTPS. */
@Module({})
export class WorkerDnsAppModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: WorkerDnsAppModule,
      imports: [ConfigModule.forRoot(config), createLoggerModule(config, 'worker-dns'), PersistenceModule, QueueModule],
      providers: [DnsAuditProcessor, DnsAuditHandler, DnsAuditService, TangerineResolver, { provide: DNS_RESOLVER, useExisting: TangerineResolver }],
    };
  }
}
