import type { Command } from 'commander';

/** PostgreSQL and the key ring's code, loaded when a `keys` command runs (docs/cli.md, "Start-up"). */
const loadDataKeys = () => import('./data-keys');

/** Operator commands for encryption at rest's keys (docs/privacy.md); `key` (singular) manages API keys. */
export function registerKeysCommands(program: Command): void {
  const keys = program.command('keys').description("manage encryption at rest's keys (talks to DATABASE_URL, reads MAILPROOF_DATA_KEYS)");

  keys
    .command('rotate')
    .description('rewrap every data key under the first key of MAILPROOF_DATA_KEYS; idempotent')
    .option('--json', 'print { keyId, rewrapped, alreadyCurrent } as JSON')
    .action(async (options: { json?: boolean }) =>
      (await loadDataKeys()).withDataKeys(async (dataKeys, keyring) => {
        const { rewrapped, current } = await dataKeys.rotate();
        if (options.json) console.log(JSON.stringify({ keyId: keyring.currentId, rewrapped, alreadyCurrent: current }));
        else console.log(`rewrapped ${rewrapped} data keys under "${keyring.currentId}"; ${current} were wrapped by it already`);
      }),
    );

  keys
    .command('seal-existing')
    .description('encrypt what was stored before encryption at rest (sources, files, results, gate summaries, rendered reports); idempotent')
    .option('--json', 'print { "<table>.<column>": count, ... } as JSON')
    .action(async (options: { json?: boolean }) => {
      const { withDataKeys, sealExistingRows, RowCipher } = await loadDataKeys();
      return withDataKeys(async (dataKeys, _keyring, dataSource) => {
        const sealed = await sealExistingRows(dataSource, new RowCipher(dataKeys));
        if (options.json) console.log(JSON.stringify(sealed));
        else for (const [column, count] of Object.entries(sealed)) console.log(`${column}: sealed ${count}`);
      });
    });
}
