import { Global, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailproofConfig } from '@mailproof/config';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options';
import { AccountsRepository } from './accounts/accounts.repository';
import { AccountDataRepository } from './accounts/account-data.repository';
import { DomainAuditRepository } from './repositories/domain-audit.repository';
import { JobProbeRepository } from './repositories/job-probe.repository';
import { FixRunRepository } from './repositories/fix-run.repository';
import { PreviewRepository } from './repositories/preview.repository';
import { ShareRepository } from './repositories/share.repository';
import { ScreenshotRepository } from './repositories/screenshot.repository';
import { GateRunRepository } from './repositories/gate-run.repository';
import { MonitoredDomainRepository } from './repositories/monitored-domain.repository';
import { WebhookRepository } from './repositories/webhook.repository';
import { DataKeyRepository } from './encryption/data-key.repository';
import { DataKeyring } from './encryption/data-keyring';
import { RowCipher } from './encryption/row-cipher';
import { RetentionRepository } from './repositories/retention.repository';
import { runMigrationsLocked } from './run-migrations';

const REPOSITORIES = [
  JobProbeRepository,
  AccountsRepository,
  MonitoredDomainRepository,
  DomainAuditRepository,
  PreviewRepository,
  FixRunRepository,
  ShareRepository,
  GateRunRepository,
  ScreenshotRepository,
  WebhookRepository,
  RetentionRepository,
  AccountDataRepository,
  DataKeyRepository,
  RowCipher,
];

/** The key-encryption keys of MAILPROOF_DATA_KEYS (validated by libs/config). */
const KEYRING = { provide: DataKeyring, inject: [MailproofConfig], useFactory: (config: MailproofConfig) => new DataKeyring(config.encryption.keys) };

/** TypeORM connection for any app; runs migrations at start when MIGRATE_ON_START is on. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [MailproofConfig],
      useFactory: (config: MailproofConfig) => ({
        ...buildDataSourceOptions({ url: config.database.url, poolSize: config.database.poolSize }),
        retryAttempts: config.database.retryAttempts,
        retryDelay: 1_000,
      }),
    }),
  ],
  providers: [KEYRING, ...REPOSITORIES],
  exports: [DataKeyring, ...REPOSITORIES],
})
export class PersistenceModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Persistence');

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: MailproofConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.encryption.development) {
      this.logger.warn('MAILPROOF_DATA_KEYS is not set: stored emails are encrypted with the built-in development key, which is public (docs/privacy.md)');
    }
    if (!this.config.database.migrateOnStart) return;
    const applied = await runMigrationsLocked(this.dataSource);
    if (applied.length > 0) this.logger.log(`applied migrations: ${applied.join(', ')}`);
  }
}
