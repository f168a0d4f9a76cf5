import { DataSource } from 'typeorm';
import { loadConfig } from '@mailproof/config';
import { AccountsRepository, buildDataSourceOptions } from '@mailproof/persistence';

export { AccountNotFoundError, KeyLimitReachedError } from '@mailproof/persistence';

/** Opens PostgreSQL (DATABASE_URL) for one operator command and always closes it. */
export async function withAccounts<T>(work: (accounts: AccountsRepository) => Promise<T>): Promise<T> {
  const dataSource = new DataSource(buildDataSourceOptions({ url: loadConfig().database.url, poolSize: 2 }));
  await dataSource.initialize();
  try {
    return await work(new AccountsRepository(dataSource));
  } finally {
    await dataSource.destroy();
  }
}
