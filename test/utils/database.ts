import { DataSource } from 'typeorm';
import type { MailproofConfig } from '@mailproof/config';
import { AccountsRepository, buildDataSourceOptions, DataKeyRepository, DataKeyring, RowCipher, type Plan } from '@mailproof/persistence';

/** A direct PostgreSQL connection for assertions and fixtures. */
export async function openDatabase(config: MailproofConfig): Promise<DataSource> {
  const dataSource = new DataSource(buildDataSourceOptions({ url: config.database.url, poolSize: 2 }));
  return dataSource.initialize();
}

/** Creates an account with its first key through the same code the CLI uses. */
export async function createTestAccount(dataSource: DataSource, plan: Plan, name = `test-${plan}-${Date.now()}`) {
  const { account, key } = await new AccountsRepository(dataSource).createAccount(name, plan);
  return { accountId: account.id, key: key.key, keyId: key.id };
}

/** What repositories encrypt with (docs/privacy.md), over the test environment's MAILPROOF_DATA_KEYS (test-env.ts), as the apps build it. */
export function testRowCipher(dataSource: DataSource, config: MailproofConfig): RowCipher {
  return new RowCipher(new DataKeyRepository(dataSource, new DataKeyring(config.encryption.keys)));
}
