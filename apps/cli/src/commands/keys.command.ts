import type { Command } from 'commander';
import { DataSource } from 'typeorm';
import { loadConfig } from '@mailproof/config';
import { buildDataSourceOptions, DataKeyRepository, DataKeyring, DataKeyringError } from '@mailproof/persistence';
import { fail } from './output';

/** Operator commands for encryption at rest's keys (docs/privacy.md); `key` (singular) manages API keys. */
export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description("manage encryption at rest's keys (talks to DATABASE_URL, reads MAILPROOF_DATA_KEYS)");

  keys
    .command('rotate')
    .description('rewrap every data key under the first key of MAILPROOF_DATA_KEYS; idempotent')
    .option('--json', 'print { keyId, rewrapped, alreadyCurrent } as JSON')
    .action(async (options: { json?: boolean }) => {
      const config = loadConfig();
      const keyring = new DataKeyring(config.encryption.keys);
      const dataSource = new DataSource(buildDataSourceOptions({ url: config.database.url, poolSize: 2 }));
      await dataSource.initialize();
      try {
        const { rewrapped, current } = await new DataKeyRepository(dataSource, keyring).rotate();
        if (options.json) console.log(JSON.stringify({ keyId: keyring.currentId, rewrapped, alreadyCurrent: current }));
        else console.log(`rewrapped ${rewrapped} data keys under "${keyring.currentId}"; ${current} were wrapped by it already`);
      } catch (error) {
        if (error instanceof DataKeyringError) fail(error.message);
        throw error;
      } finally {
        await dataSource.destroy();
      }
    });
}
