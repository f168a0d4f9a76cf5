import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { DataKeyRepository, DataKeyring, encodePreviewResult, FixRunRepository, PreviewRepository, ScreenshotRepository } from '@mailproof/persistence';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
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

  it('seal-existing encrypts every value stored before encryption, which reads the same afterwards, and finds nothing the second time', async () => {
    // Back under the suite's key (the test above rotated away from it), as every other file's data keys are.
    expect(mailproof(`${suiteKeys},${newKey}`, 'keys', 'rotate').code).toBe(0);
    const id = `prv_${randomBytes(16).toString('hex').slice(0, 24)}`;
    const fixId = `fix_${randomBytes(16).toString('hex').slice(0, 24)}`;
    const source = '<p>Receipt for Jane Example</p>';
    const result = encodePreviewResult(id, { html: source });
    const reports = { overflowReport: null, visualReport: null, mobileContrast: null, screenshotNotes: ['Jane Example'] };
    await db.query(
      `INSERT INTO previews (id, account_id, format, clients, source, files, status, result, gate_summary, rendered_reports)
       VALUES ($1, $2, 'html', '{gmail-web}', $3, $4, 'completed', $5, $6, $7)`,
      [id, accountId, source, JSON.stringify({ 'a.html': source }), result, '{"links":["Jane Example"]}', JSON.stringify(reports)],
    );
    await db.query(
      `INSERT INTO fix_runs (id, account_id, format, clients, tiers, source, status, result, expires_at) VALUES ($1, $2, 'html', '{gmail-web}', '{safe}', $3, 'completed', $4, now() + interval '1 hour')`,
      [fixId, accountId, source, result],
    );

    const first = mailproof(suiteKeys, 'keys', 'seal-existing', '--json');
    expect(first.stderr).toBe('');
    const counts = JSON.parse(first.stdout) as Record<string, number>;
    expect(Object.keys(counts).sort()).toEqual(
      [
        'fix_runs.files',
        'fix_runs.result',
        'fix_runs.source',
        'previews.files',
        'previews.gate_summary',
        'previews.rendered_reports',
        'previews.result',
        'previews.source',
      ].sort(),
    );
    for (const column of Object.keys(counts).filter((name) => name !== 'fix_runs.files')) expect(counts[column]).toBeGreaterThanOrEqual(1);

    const [raw] = (await db.query('SELECT source, files::text AS files, result, gate_summary, rendered_reports::text AS reports FROM previews WHERE id = $1', [
      id,
    ])) as Array<Record<string, string | Buffer>>;
    for (const column of Object.values(raw)) expect(String(column)).not.toContain('Jane');
    const cipher = testRowCipher(db, config);
    const previews = new PreviewRepository(db, new ScreenshotRepository(db, cipher), cipher);
    expect(await previews.findForAnalysis(id)).toMatchObject({ source, files: { 'a.html': source } });
    const read = await previews.find(id);
    expect(read?.result?.equals(result)).toBe(true);
    expect(read?.renderedReports).toEqual(reports);
    expect((await previews.findGateSummary(id))?.gateSummary).toBe('{"links":["Jane Example"]}');
    expect((await new FixRunRepository(db, cipher).findForRun(fixId))?.source).toBe(source);

    const second = JSON.parse(mailproof(suiteKeys, 'keys', 'seal-existing', '--json').stdout) as Record<string, number>;
    expect(Object.values(second)).toEqual(Object.values(second).map(() => 0));
  });
});
