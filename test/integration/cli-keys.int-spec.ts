import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import {
  DataKeyRepository,
  DataKeyring,
  encodePreviewResult,
  FixRunRepository,
  GateRunRepository,
  PreviewRepository,
  ScreenshotRepository,
  WebhookRepository,
} from '@mailproof/persistence';
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

    // URLs are the email's too: a gate run's links and verdict and a webhook event's payload stored before they were sealed.
    const runId = `gtr_${randomBytes(16).toString('hex').slice(0, 24)}`;
    const links = { checked: [{ url: 'https://jane.example/receipt', status: 200 }], unchecked: [] };
    const verdict = { passed: false, failures: [{ family: 'content', check: 'links', href: 'https://jane.example/receipt', reason: 'placeholder' }] };
    const payload = { type: 'gate.failed', timestamp: new Date().toISOString(), data: { runId, failures: verdict.failures } };
    await db.query(
      `INSERT INTO gate_runs (id, account_id, request, preview_id, status, passed, links, verdict) VALUES ($1, $2, '{}', $3, 'completed', false, $4, $5)`,
      [runId, accountId, id, JSON.stringify(links), JSON.stringify(verdict)],
    );
    const eventId = `msg_${randomBytes(12).toString('hex')}`;
    await db.query(`INSERT INTO webhook_events (id, account_id, type, source_key, payload) VALUES ($1, $2, 'gate.failed', $3, $4)`, [
      eventId,
      accountId,
      `gate.failed/${runId}`,
      JSON.stringify(payload),
    ]);

    const first = mailproof(suiteKeys, 'keys', 'seal-existing', '--json');
    expect(first.stderr).toBe('');
    const counts = JSON.parse(first.stdout) as Record<string, number>;
    expect(Object.keys(counts).sort()).toEqual(
      [
        'fix_runs.files',
        'fix_runs.result',
        'fix_runs.source',
        'gate_runs.links',
        'gate_runs.verdict',
        'previews.files',
        'previews.gate_summary',
        'previews.rendered_reports',
        'previews.result',
        'previews.source',
        'webhook_events.payload',
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
    const [sealedRun] = (await db.query('SELECT links::text AS links, verdict::text AS verdict FROM gate_runs WHERE id = $1', [runId])) as Array<
      Record<string, string>
    >;
    const [sealedEvent] = (await db.query('SELECT payload::text AS payload FROM webhook_events WHERE id = $1', [eventId])) as Array<Record<string, string>>;
    for (const column of [...Object.values(sealedRun), sealedEvent.payload]) expect(column).not.toContain('jane.example');
    const webhooks = new WebhookRepository(db, cipher);
    expect(await new GateRunRepository(db, webhooks, cipher).find(runId)).toMatchObject({ links, verdict });
    expect(await webhooks.openPayload({ id: eventId, accountId }, JSON.parse(sealedEvent.payload) as string)).toEqual(payload);

    const second = JSON.parse(mailproof(suiteKeys, 'keys', 'seal-existing', '--json').stdout) as Record<string, number>;
    expect(Object.values(second)).toEqual(Object.values(second).map(() => 0));
  });
});
