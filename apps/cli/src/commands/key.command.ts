import type { Command } from 'commander';
import { resolveAccountId } from './account-reference';
import { fail } from './output';

export function registerKeyCommands(program: Command): void {
  const key = program.command('key').description('manage API keys (talks to DATABASE_URL)');

  key
    .command('create')
    .description('create an API key for an account (shown once); the plan key limit applies')
    .requiredOption('--account <account>', 'account id or name')
    .requiredOption('--name <name>', 'key name')
    .option('--json', 'print { keyId, key, ... } as JSON')
    .action(async (options: { account: string; name: string; json?: boolean }) => {
      // Loaded here, not at start: the configuration and PostgreSQL code only this command needs.
      const [{ loadConfig }, { withAccounts, AccountNotFoundError, KeyLimitReachedError }] = await Promise.all([
        import('@mailproof/config'),
        import('./database'),
      ]);
      const limits = loadConfig().auth.keyLimits;
      const created = await withAccounts(async (accounts) => {
        const accountId = await resolveAccountId(accounts, options.account);
        return { accountId, ...(await accounts.createKey(accountId, options.name, limits)) };
      }).catch((error: unknown) => {
        if (error instanceof AccountNotFoundError) fail(`no account ${options.account}`);
        if (error instanceof KeyLimitReachedError) fail(error.message);
        throw error;
      });
      if (options.json) {
        console.log(JSON.stringify({ keyId: created.id, accountId: created.accountId, name: created.name, prefix: created.prefix, key: created.key }));
      } else {
        console.log(`key ${created.id} (${created.name})`);
        console.log(`API key (shown once, store it now): ${created.key}`);
      }
    });
}
