import type { Command } from 'commander';
import { AccountNotFoundError, PLANS, type Plan } from '@mailproof/persistence';
import { withAccounts } from './database';
import { fail, printTable } from './output';

function parsePlan(value: string): Plan {
  if (!(PLANS as readonly string[]).includes(value)) fail(`plan must be one of: ${PLANS.join(', ')} (got "${value}")`);
  return value as Plan;
}

/** Operator commands: accounts are created here, never over HTTP (decisions.md section 4). */
export function registerAccountCommands(program: Command): void {
  const account = program.command('account').description('manage customer accounts (talks to DATABASE_URL)');

  account
    .command('create')
    .description("create an account and print its first API key (shown once)")
    .requiredOption('--name <name>', 'account name')
    .option('--plan <plan>', `plan: ${PLANS.join('|')}`, 'free')
    .option('--json', 'print { accountId, key, ... } as JSON')
    .action(async (options: { name: string; plan: string; json?: boolean }) => {
      const plan = parsePlan(options.plan);
      if (!options.name.trim()) fail('--name must not be empty');
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
    .description("change an account's plan")
    .argument('<accountId>', 'account id')
    .argument('<plan>', `new plan: ${PLANS.join('|')}`)
    .option('--json', 'print the account as JSON')
    .action(async (accountId: string, planText: string, options: { json?: boolean }) => {
      const plan = parsePlan(planText);
      const updated = await withAccounts((accounts) => accounts.setPlan(accountId, plan)).catch((error: unknown) => {
        if (error instanceof AccountNotFoundError) fail(`no account ${accountId}`);
        throw error;
      });
      if (options.json) console.log(JSON.stringify({ accountId: updated.id, name: updated.name, plan: updated.plan }));
      else console.log(`account ${updated.id} is now on ${updated.plan}`);
    });

  account
    .command('list')
    .description('list accounts')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const rows = await withAccounts((accounts) => accounts.listAccounts());
      const view = rows.map((r) => ({ accountId: r.id, name: r.name, plan: r.plan, activeKeys: r.activeKeys, createdAt: r.createdAt.toISOString() }));
      if (options.json) console.log(JSON.stringify({ accounts: view }));
      else printTable(view);
    });
}
