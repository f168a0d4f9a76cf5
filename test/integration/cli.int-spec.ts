import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { hashApiKey } from '@mailproof/persistence';
import { openDatabase } from '../utils/database';
import { testConfig } from '../utils/test-config';

// The built `mailproof` command against the real test database.
const ROOT = join(__dirname, '..', '..');
function mailproof(...args: string[]) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'mailproof.js'), ...args], { cwd: ROOT, env: process.env, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mailproof command line', () => {
  const config = testConfig();
  let db: DataSource;
  beforeAll(async () => (db = await openDatabase(config)));
  afterAll(() => db.destroy());

  it('prints help and its version', () => {
    const help = mailproof('--help');
    expect(help.code).toBe(0);
    for (const command of ['migrate', 'account', 'key']) expect(help.stdout).toContain(command);
    const version = mailproof('--version');
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('migrates idempotently', () => {
    const result = mailproof('migrate', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ applied: [] });
  });

  it('creates an account with its first key, changes its plan, lists it and adds a key', async () => {
    const created = mailproof('account', 'create', '--name', 'acme-cli', '--plan', 'free', '--json');
    expect(created.code).toBe(0);
    const { accountId, key } = JSON.parse(created.stdout);
    expect(key).toMatch(/^mp_live_/);
    const [row] = await db.query('SELECT k.account_id FROM api_keys k WHERE k.key_hash = $1', [hashApiKey(key)]);
    expect(row.account_id).toBe(accountId);

    expect(mailproof('account', 'plan', accountId, 'pro').code).toBe(0);
    const listed = JSON.parse(mailproof('account', 'list', '--json').stdout);
    expect(listed.accounts.find((a: { accountId: string }) => a.accountId === accountId)).toMatchObject({ name: 'acme-cli', plan: 'pro', activeKeys: 1 });

    const second = JSON.parse(mailproof('key', 'create', '--account', accountId, '--name', 'deploy', '--json').stdout);
    expect(second).toMatchObject({ accountId, name: 'deploy', key: expect.stringMatching(/^mp_live_/) });
  });

  it('finds an account by its name as well as its id, and asks for the id when a name is taken twice', async () => {
    const name = `named-${Date.now()}`;
    const { accountId } = JSON.parse(mailproof('account', 'create', '--name', name, '--plan', 'free', '--json').stdout);
    // The same flags as `account create`, or positional arguments.
    expect(JSON.parse(mailproof('account', 'plan', '--name', name, '--plan', 'pro', '--json').stdout)).toEqual({ accountId, name, plan: 'pro' });
    expect(JSON.parse(mailproof('account', 'plan', name, 'free', '--json').stdout)).toEqual({ accountId, name, plan: 'free' });
    const [row] = await db.query('SELECT plan FROM accounts WHERE id = $1', [accountId]);
    expect(row.plan).toBe('free');
    expect(JSON.parse(mailproof('key', 'create', '--account', name, '--name', 'ci', '--json').stdout)).toMatchObject({ accountId, name: 'ci' });

    mailproof('account', 'create', '--name', name, '--json');
    const ambiguous = mailproof('account', 'plan', name, 'pro');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`2 accounts are named "${name}"`);
    expect(ambiguous.stderr).toContain(accountId);
    const missing = mailproof('account', 'plan', '--name', name);
    expect(missing.code).toBe(3);
  });

  it('explains bad input and exits non-zero', () => {
    const badPlan = mailproof('account', 'create', '--name', 'x', '--plan', 'gold');
    expect(badPlan.code).toBe(3); // a wrong value on the command line: a usage error
    expect(badPlan.stderr).toContain('plan must be one of: free, pro');
    const unknown = mailproof('account', 'plan', '00000000-0000-4000-8000-000000000000', 'pro');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no account');
    expect(mailproof('key', 'create', '--name', 'x').stderr).toContain("required option '--account <account>'");
  });
});
