import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  DataKeyRepository,
  DataKeyring,
  DataKeyringError,
  EncryptedContentGoneError,
  FixRunRepository,
  PreviewRepository,
  RowCipher,
  ScreenshotRepository,
  encodePreviewResult,
  parsePreviewResult,
  utcDay,
} from '@mailproof/persistence';
import { createTestAccount, openDatabase } from '../utils/database';
import { testConfig } from '../utils/test-config';

const SECRET = 'Receipt for Jane Example, card ending 4242';
const SOURCE = `<html><body><p>${SECRET}</p></body></html>`;
const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };

/** Repositories as a process with this ring builds them: a fresh data-key cache each time, as a restarted app has. */
function storesWith(db: DataSource, ...ring: Array<{ id: string; key: Buffer }>) {
  const dataKeys = new DataKeyRepository(db, new DataKeyring(ring));
  const cipher = new RowCipher(dataKeys);
  const screenshots = new ScreenshotRepository(db, cipher);
  return { dataKeys, screenshots, previews: new PreviewRepository(db, screenshots, cipher), fixRuns: new FixRunRepository(db, cipher) };
}

describe('encryption at rest (real PostgreSQL)', () => {
  const config = testConfig();
  let db: DataSource;
  let accountId: string;
  let otherAccountId: string;

  beforeAll(async () => {
    db = await openDatabase(config);
    // These tests use rings of their own: the data keys earlier files left (under the suite's key) would not unwrap.
    await db.query('DELETE FROM account_data_keys');
    accountId = (await createTestAccount(db, 'free')).accountId;
    otherAccountId = (await createTestAccount(db, 'free')).accountId;
  });
  afterAll(async () => {
    // Later files in this database use the suite's key (test-env.ts): everything goes back under it.
    await storesWith(db, ...config.encryption.keys, k2, k1).dataKeys.rotate();
    await db.query('DELETE FROM accounts WHERE id = ANY($1)', [[accountId, otherAccountId]]);
    await db?.destroy();
  });

  async function completedPreview(previews: PreviewRepository, owner: string | null) {
    const preview = await previews.create({
      accountId: owner,
      title: 'Receipt',
      format: 'mjml',
      clients: ['gmail-web'],
      source: SOURCE,
      files: { 'parts/footer.mjml': SECRET },
      expiresAt: null,
    });
    const storedResult = encodePreviewResult(preview.id, { html: SOURCE, overallScore: 90 });
    expect(
      await previews.storeOutcome(preview.id, { storedResult, overallScore: 90, gateSummary: JSON.stringify({ links: [SECRET] }), accountId: owner }),
    ).toBe(true);
    return { id: preview.id, storedResult };
  }

  it('round-trips source, files, result and gate summary, and stores none of them in the clear', async () => {
    const { previews } = storesWith(db, k1);
    for (const owner of [accountId, null]) {
      const { id, storedResult } = await completedPreview(previews, owner);
      const input = await previews.findForAnalysis(id);
      expect(input).toMatchObject({ accountId: owner, source: SOURCE, files: { 'parts/footer.mjml': SECRET } });
      expect((await previews.find(id))?.result?.equals(storedResult)).toBe(true);
      expect(parsePreviewResult((await previews.findForRender(id))!.result!)).toEqual({ id, html: SOURCE, overallScore: 90 });
      // A gate's suggested fix reads a compiled format's result only (its compiled HTML), opened.
      const toFix = await previews.findEmailToFix(id);
      expect(toFix).toMatchObject({ id, accountId: owner, format: 'mjml', status: 'completed', source: null });
      expect(toFix?.result?.equals(storedResult)).toBe(true);
      expect((await previews.findGateSummary(id))?.gateSummary).toBe(JSON.stringify({ links: [SECRET] }));

      const [raw] = (await db.query('SELECT source, files::text AS files, result, gate_summary FROM previews WHERE id = $1', [id])) as Array<
        Record<string, string | Buffer>
      >;
      expect(raw.source).toMatch(/^mpe1:[A-Za-z0-9+/]+=*$/);
      expect(raw.files).toMatch(/^"mpe1:/);
      expect(raw.gate_summary).toMatch(/^mpe1:/);
      expect((raw.result as Buffer).subarray(0, 3)).toEqual(Buffer.from([0x4d, 0x50, 1]));
      for (const column of Object.values(raw)) expect(String(column)).not.toContain('Jane');
    }
  });

  it("seals a render's reports (their contrast failures quote the email) and merges the next render's into them", async () => {
    const { previews, screenshots } = storesWith(db, k1);
    const { id } = await completedPreview(previews, accountId);
    const failure = { line: 1, tag: 'p', sample: SECRET, color: '#777777', background: '#ffffff', ratio: 4.4, required: 4.5 };
    const contrast = (mode: 'light' | 'dark') => ({
      clients: [{ clientId: 'gmail-ios' as const, mode, checked: 3, failures: [failure], overImage: 0 }],
      failing: 1,
    });
    const attach = (mode: 'light' | 'dark') =>
      screenshots.attachToPreview(id, [], [], { [`gmail-ios-${mode}`]: `/s/${mode}.png` }, (current) => ({
        overflowReport: null,
        visualReport: null,
        mobileContrast: {
          clients: [...(current?.mobileContrast?.clients ?? []), ...contrast(mode).clients],
          failing: (current?.mobileContrast?.failing ?? 0) + 1,
        },
      }));
    expect(await attach('light')).toBe(true);
    expect(await attach('dark')).toBe(true);
    const [raw] = (await db.query('SELECT rendered_reports::text AS reports FROM previews WHERE id = $1', [id])) as Array<{ reports: string }>;
    expect(raw.reports).toMatch(/^"mpe1:/);
    expect(raw.reports).not.toContain('Jane');
    const read = await previews.find(id);
    expect(read?.renderedReports?.mobileContrast).toEqual({ clients: [...contrast('light').clients, ...contrast('dark').clients], failing: 2 });
    await expect(
      new ScreenshotRepository(db).attachToPreview(id, [], [], {}, () => ({ overflowReport: null, visualReport: null, mobileContrast: null })),
    ).rejects.toThrow(/needs a RowCipher/);
  });

  it('seals fix runs the same way', async () => {
    const { fixRuns } = storesWith(db, k1);
    const run = await fixRuns.create({
      accountId,
      format: 'html',
      clients: ['gmail-web'],
      tiers: ['safe'],
      source: SOURCE,
      expiresAt: new Date(Date.now() + 60_000),
    });
    const storedResult = encodePreviewResult(run.id, { html: SOURCE });
    expect(await fixRuns.storeOutcome(run.id, { storedResult, accountId })).toBe(true);
    expect((await fixRuns.findForRun(run.id))?.source).toBe(SOURCE);
    expect((await fixRuns.find(run.id))?.result?.equals(storedResult)).toBe(true);
    const [raw] = (await db.query('SELECT source, result FROM fix_runs WHERE id = $1', [run.id])) as Array<{ source: string; result: Buffer }>;
    expect(raw.source).toMatch(/^mpe1:[A-Za-z0-9+/]+=*$/);
    // The stored result is Brotli before it is sealed (no plaintext to look for): the envelope's header says it is sealed.
    expect(raw.result.subarray(0, 3)).toEqual(Buffer.from([0x4d, 0x50, 1]));
  });

  it('will not store a result under another account than the preview’s', async () => {
    const { previews } = storesWith(db, k1);
    const preview = await previews.create({ accountId, title: null, format: 'html', clients: ['gmail-web'], source: SOURCE, expiresAt: null });
    expect(await previews.storeOutcome(preview.id, { storedResult: encodePreviewResult(preview.id, {}), overallScore: 1, accountId: otherAccountId })).toBe(
      false,
    );
  });

  it('does not open a ciphertext copied onto another row or another account’s row', async () => {
    const { previews } = storesWith(db, k1);
    const a = await completedPreview(previews, accountId);
    const sameAccount = await completedPreview(previews, accountId);
    const otherAccount = await completedPreview(previews, otherAccountId);
    for (const target of [sameAccount.id, otherAccount.id]) {
      await db.query(
        'UPDATE previews SET source = (SELECT source FROM previews WHERE id = $1), result = (SELECT result FROM previews WHERE id = $1) WHERE id = $2',
        [a.id, target],
      );
      await expect(previews.findForAnalysis(target)).rejects.toThrow(/Unsupported state or unable to authenticate data/);
      await expect(previews.find(target)).rejects.toThrow(/Unsupported state or unable to authenticate data/);
    }
  });

  it('reads rows stored before encryption as they are', async () => {
    const { previews } = storesWith(db, k1);
    const id = `prv_${randomBytes(12).toString('hex').slice(0, 24)}`;
    const storedResult = encodePreviewResult(id, { legacy: true });
    await db.query(
      `INSERT INTO previews (id, account_id, format, clients, source, files, status, result) VALUES ($1, $2, 'html', '{gmail-web}', $3, $4, 'completed', $5)`,
      [id, accountId, SOURCE, JSON.stringify({ 'a.html': SECRET }), storedResult],
    );
    expect(await previews.findForAnalysis(id)).toMatchObject({ source: SOURCE, files: { 'a.html': SECRET } });
    expect((await previews.find(id))?.result?.equals(storedResult)).toBe(true);
    // An html preview's suggested fix reads its source only.
    expect(await previews.findEmailToFix(id)).toEqual({ id, accountId, format: 'html', status: 'completed', source: SOURCE, result: null });
  });

  it('rotation rewraps every data key under the first key; old and new rings read; a ring without the wrapping key says which is missing', async () => {
    await db.query('DELETE FROM account_data_keys');
    const before = storesWith(db, k1);
    const own = await completedPreview(before.previews, accountId);
    const anonymous = await completedPreview(before.previews, null);

    const rotating = storesWith(db, k2, k1);
    expect(await rotating.dataKeys.rotate()).toEqual({ rewrapped: 2, current: 0 });
    expect(await db.query('SELECT DISTINCT kek_id FROM account_data_keys')).toEqual([{ kek_id: 'k2' }]);
    expect(await rotating.dataKeys.rotate()).toEqual({ rewrapped: 0, current: 2 });

    for (const ring of [[k2], [k2, k1]]) {
      const { previews } = storesWith(db, ...ring);
      expect((await previews.find(own.id))?.result?.equals(own.storedResult)).toBe(true);
      expect((await previews.findForAnalysis(anonymous.id))?.source).toBe(SOURCE);
    }
    const stale = storesWith(db, k1);
    await expect(stale.previews.find(own.id)).rejects.toThrow(DataKeyringError);
    await expect(stale.previews.find(own.id)).rejects.toThrow(/wrapped by key "k2", which MAILPROOF_DATA_KEYS does not hold/);
    await expect(stale.dataKeys.rotate()).rejects.toThrow(/wrapped by key "k2"/);
  });

  it('destroying the account’s data key makes its rows unreadable (gone), in every process, and leaves other accounts readable', async () => {
    const writer = storesWith(db, k2, k1);
    const own = await completedPreview(writer.previews, accountId);
    const other = await completedPreview(writer.previews, otherAccountId);
    const reader = storesWith(db, k2, k1);
    expect((await reader.previews.find(own.id))?.result?.equals(own.storedResult)).toBe(true);

    expect(await writer.dataKeys.destroyForAccount(accountId)).toBe(true);
    expect(await writer.dataKeys.destroyForAccount(accountId)).toBe(false);
    await expect(writer.previews.find(own.id)).rejects.toThrow(EncryptedContentGoneError);
    await expect(storesWith(db, k2, k1).previews.findForAnalysis(own.id)).rejects.toThrow(EncryptedContentGoneError);
    expect((await storesWith(db, k2, k1).previews.find(other.id))?.result?.equals(other.storedResult)).toBe(true);
  });

  it('keeps one anonymous data key per UTC day and shreds the days before a given one', async () => {
    await db.query('DELETE FROM account_data_keys WHERE account_id IS NULL');
    const { dataKeys } = storesWith(db, k2);
    const monday = await dataKeys.keyFor(null, new Date('2026-11-23T23:59:00Z'));
    expect((await dataKeys.keyFor(null, new Date('2026-11-23T00:00:00Z'))).id).toBe(monday.id);
    const tuesday = await dataKeys.keyFor(null, new Date('2026-11-24T00:00:00Z'));
    expect(tuesday.id).not.toBe(monday.id);
    expect(await dataKeys.destroyAnonymousBefore('2026-11-24')).toBe(1);
    await expect(dataKeys.keyById(monday.id)).rejects.toThrow(EncryptedContentGoneError);
    expect((await dataKeys.keyById(tuesday.id)).key.equals(tuesday.key)).toBe(true);
    expect(utcDay(new Date('2026-11-24T23:30:00-05:00'))).toBe('2026-11-25');
  });

  it('gives two processes creating an account’s first key at once the same key', async () => {
    const { accountId: fresh } = await createTestAccount(db, 'free');
    const keys = await Promise.all([1, 2, 3, 4].map(() => storesWith(db, k2).dataKeys.keyFor(fresh)));
    expect(new Set(keys.map((key) => key.id)).size).toBe(1);
    expect(new Set(keys.map((key) => key.key.toString('hex'))).size).toBe(1);
    await db.query('DELETE FROM accounts WHERE id = $1', [fresh]);
    expect(await db.query('SELECT id FROM account_data_keys WHERE id = $1', [keys[0].id])).toEqual([]);
  });
});
