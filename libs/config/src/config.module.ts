import { DynamicModule, Global, Module } from '@nestjs/common';
import { loadConfig } from './load-config';
import { MailproofConfig } from './mailproof.config';

/** Global module that validates the environment once and provides MailproofConfig. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config?: MailproofConfig): DynamicModule {
    const resolved = config ?? loadConfig();
    return {
      module: ConfigModule,
      providers: [{ provide: MailproofConfig, useValue: resolved }],
      exports: [MailproofConfig],
    };
  }
}
