import type { Command } from 'commander';
import { MAX_RETENTION_DAYS } from '@mailproof/contracts';
import { PLANS, type Plan } from '@mailproof/persistence/plans';
import { registerAccountDataCommands } from './account-data.command';
import { resolveAccountId } from './account-reference';
import { CliError, EXIT_CODES } from './cli-errors';
import { fail, printTable } from './output';

/**
 * PostgreSQL's code (TypeORM and the repositories) is loaded when an operator command runs, not when the
 * program starts: the email commands and `--help` never pay for it (docs/cli.md, "Start-up").
 */
const database = () => import('./database');

function parsePlan(value: string): Plan {
  if (!(PLANS as readonly string[]).includes(value)) throw new CliError(`plan must be one of: ${PLANS.join(', ')} (got "${value}")`, 'usage', EXIT_CODES.usage);
  return value as Plan;
}

/** Operator commands: accounts are created here, never over HTTP (no endpoint creates an account). */
export function registerAccountCommands(program: Command): void {
  const account = program.command('account').description('manage customer accounts (talks to DATABASE_URL)');

  account
    .command('create')
    .description('create an account and print its first API key (shown once)')
    .requiredOption('--name <name>', 'account name')
    .option('--plan <plan>', `plan: ${PLANS.join('|')}`, 'free')
    .option('--json', 'print { accountId, key, ... } as JSON')
    .action(async (options: { name: string; plan: string; json?: boolean }) => {
      const plan = parsePlan(options.plan);
      if (!options.name.trim()) fail('--name must not be empty');
      const { withAccounts } = await database();
      const { account: created, key } = await withAccounts((accounts) => accounts.createAccount(options.name.trim(), plan));
      if (options.json) {
        console.log(JSON.stringify({ accountId: created.id, name: created.name, plan: created.plan, keyId: key.id, key: key.key }));
      } else {
        console.log(`account ${created.id} (${created.name}, ${created.plan})`);
        console.log(`API key (shown once, store it now): ${key.key}`);
      }
    });

  account
    .command('plan')
    .description("change an account's plan: `account plan <account> <plan>` or `account plan --name acme --plan pro`")
    .argument('[account]', 'account id or name')
    .argument('[plan]', `new plan: ${PLANS.join('|')}`)
    .option('--account <account>', 'account id or name')
    .option('--name <name>', 'account name')
    .option('--plan <plan>', `new plan: ${PLANS.join('|')}`)
    .option('--json', 'print the account as JSON')
    .action(
      async (
        accountArgument: string | undefined,
        planArgument: string | undefined,
        options: { account?: string; name?: string; plan?: string; json?: boolean },
      ) => {
        const reference = accountArgument ?? options.account ?? options.name;
        const planText = planArgument ?? options.plan;
        if (!reference || !planText)
          throw new CliError('give the account (id or name) and the plan: mailproof account plan <account> <plan>', 'usage', EXIT_CODES.usage);
        const plan = parsePlan(planText);
        const { withAccounts, AccountNotFoundError } = await database();
        const updated = await withAccounts(async (accounts) =>
          accounts.setPlan(await resolveAccountId(accounts, reference), plan, MAX_RETENTION_DAYS[plan]),
        ).catch((error: unknown) => {
          if (error instanceof AccountNotFoundError) fail(`no account ${reference}`);
          throw error;
        });
        if (options.json) console.log(JSON.stringify({ accountId: updated.id, name: updated.name, plan: updated.plan }));
        else console.log(`account ${updated.id} (${updated.name}) is now on ${updated.plan}`);
      },
    );

  account
    .command('list')
    .description('list accounts')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { withAccounts } = await database();
      const rows = await withAccounts((accounts) => accounts.listAccounts());
      const view = rows.map((r) => ({ accountId: r.id, name: r.name, plan: r.plan, activeKeys: r.activeKeys, createdAt: r.createdAt.toISOString() }));
      if (options.json) console.log(JSON.stringify({ accounts: view }));
      else printTable(view);
    });

  registerAccountDataCommands(account);
}
