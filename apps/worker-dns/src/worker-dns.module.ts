import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { QueueModule } from '@mailproof/queue';
import { WorkerDnsProcessor } from './dns-audit.processor';

/** The worker-dns app: no HTTP, consumes the `dns-audit` queue. */
@Module({})
export class WorkerDnsAppModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: WorkerDnsAppModule,
      imports: [ConfigModule.forRoot(config), createLoggerModule(config, 'worker-dns'), PersistenceModule, QueueModule],
      providers: [WorkerDnsProcessor],
    };
  }
}
