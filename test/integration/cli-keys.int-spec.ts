import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { DataKeyRepository, DataKeyring } from '@mailproof/persistence';
import { createTestAccount, openDatabase } from '../utils/database';
import { testConfig } from '../utils/test-config';

// The built `mailproof keys rotate` against the real test database.
const ROOT = join(__dirname, '..', '..');
function mailproof(dataKeys: string, ...args: string[]) {
  const env = { ...process.env, MAILPROOF_DATA_KEYS: dataKeys };
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'mailproof.js'), ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mailproof keys rotate', () => {
  const config = testConfig();
  const suiteKeys = process.env.MAILPROOF_DATA_KEYS!;
  const newKey = `rotated:${randomBytes(32).toString('base64')}`;
  let db: DataSource;
  let accountId: string;

  beforeAll(async () => {
    db = await openDatabase(config);
    accountId = (await createTestAccount(db, 'free')).accountId;
  });
  afterAll(async () => {
    // Later files in this database use the suite's key: everything goes back under it.
    mailproof(`${suiteKeys},${newKey}`, 'keys', 'rotate');
    await db.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    await db.destroy();
  });

  it('rewraps every data key under the first key, counts, is idempotent, and the old ring can no longer read', async () => {
    const original = await new DataKeyRepository(db, new DataKeyring(config.encryption.keys)).keyFor(accountId);
    const [{ total }] = (await db.query('SELECT count(*)::int AS total FROM account_data_keys')) as Array<{ total: number }>;

    const first = mailproof(`${newKey},${suiteKeys}`, 'keys', 'rotate', '--json');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ keyId: 'rotated', rewrapped: total, alreadyCurrent: 0 });
    expect(JSON.parse(mailproof(`${newKey},${suiteKeys}`, 'keys', 'rotate', '--json').stdout)).toEqual({
      keyId: 'rotated',
      rewrapped: 0,
      alreadyCurrent: total,
    });
    expect(mailproof(`${newKey},${suiteKeys}`, 'keys', 'rotate').stdout).toBe(`rewrapped 0 data keys under "rotated"; ${total} were wrapped by it already\n`);

    // The data key itself did not change: the new ring unwraps the same bytes.
    const rewrapped = await new DataKeyRepository(db, new DataKeyring([{ id: 'rotated', key: Buffer.from(newKey.split(':')[1], 'base64') }])).keyById(
      original.id,
    );
    expect(rewrapped.key.equals(original.key)).toBe(true);

    const stale = mailproof(suiteKeys, 'keys', 'rotate');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('is wrapped by key "rotated", which MAILPROOF_DATA_KEYS does not hold');
  });
});
