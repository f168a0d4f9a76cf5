import { DataSource } from 'typeorm';
import { loadConfig } from '@mailproof/config';
import { buildDataSourceOptions, DataKeyRepository, DataKeyring, DataKeyringError } from '@mailproof/persistence';
import { fail } from './output';

export { RowCipher, sealExistingRows } from '@mailproof/persistence';

/** Opens PostgreSQL and the key ring for one command and always closes it; a key the ring lacks is a plain failure (exit 1). */
export async function withDataKeys(work: (dataKeys: DataKeyRepository, keyring: DataKeyring, dataSource: DataSource) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const keyring = new DataKeyring(config.encryption.keys);
  const dataSource = new DataSource(buildDataSourceOptions({ url: config.database.url, poolSize: 2 }));
  await dataSource.initialize();
  try {
    await work(new DataKeyRepository(dataSource, keyring), keyring, dataSource);
  } catch (error) {
    if (error instanceof DataKeyringError) fail(error.message);
    throw error;
  } finally {
    await dataSource.destroy();
  }
}
