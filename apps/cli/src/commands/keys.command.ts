import type { Command } from 'commander';
import { DataSource } from 'typeorm';
import { loadConfig } from '@mailproof/config';
import { buildDataSourceOptions, DataKeyRepository, DataKeyring, DataKeyringError, RowCipher, sealExistingRows } from '@mailproof/persistence';
import { fail } from './output';

/** Operator commands for encryption at rest's keys (docs/privacy.md); `key` (singular) manages API keys. */
export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description("manage encryption at rest's keys (talks to DATABASE_URL, reads MAILPROOF_DATA_KEYS)");

  keys
    .command('rotate')
    .description('rewrap every data key under the first key of MAILPROOF_DATA_KEYS; idempotent')
    .option('--json', 'print { keyId, rewrapped, alreadyCurrent } as JSON')
    .action((options: { json?: boolean }) =>
      withDataKeys(async (dataKeys, keyring) => {
        const { rewrapped, current } = await dataKeys.rotate();
        if (options.json) console.log(JSON.stringify({ keyId: keyring.currentId, rewrapped, alreadyCurrent: current }));
        else console.log(`rewrapped ${rewrapped} data keys under "${keyring.currentId}"; ${current} were wrapped by it already`);
      }),
    );

  keys
    .command('seal-existing')
    .description('encrypt what was stored before encryption at rest (sources, files, results, gate summaries, rendered reports); idempotent')
    .option('--json', 'print { "<table>.<column>": count, ... } as JSON')
    .action((options: { json?: boolean }) =>
      withDataKeys(async (dataKeys, _keyring, dataSource) => {
        const sealed = await sealExistingRows(dataSource, new RowCipher(dataKeys));
        if (options.json) console.log(JSON.stringify(sealed));
        else for (const [column, count] of Object.entries(sealed)) console.log(`${column}: sealed ${count}`);
      }),
    );
}

/** Opens PostgreSQL and the key ring for one command and always closes it; a key the ring lacks is a plain failure (exit 1). */
async function withDataKeys(work: (dataKeys: DataKeyRepository, keyring: DataKeyring, dataSource: DataSource) => Promise<void>): Promise<void> {
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
