import type { DataSource } from 'typeorm';
import type { DeliverabilityResult } from '@mailproof/contracts';
import { AccountsRepository, DomainAuditRepository, PreviewRepository, ScreenshotRepository, WebhookRepository } from '@mailproof/persistence';
import { openDatabase, testRowCipher } from '../utils/database';
import { testConfig } from '../utils/test-config';

// PostgreSQL refuses U+0000 in text and in jsonb, and a lone surrogate escape in jsonb. Requests
// cannot carry either into the database (the API refuses NUL with 400), but text from elsewhere
// can: a template's compile error, a DNS TXT record, a warning quoting markup. Every text and jsonb
// column strips NUL and replaces lone surrogates on the way in, whichever repository writes it.
describe('text from outside is storable in every text and jsonb column (real PostgreSQL)', () => {
  const config = testConfig();
  let db: DataSource;

  beforeAll(async () => {
    db = await openDatabase(config);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('stores a compile failure whose message holds NUL and a lone surrogate', async () => {
    const previews = new PreviewRepository(db, new ScreenshotRepository(db), testRowCipher(db, config));
    const preview = await previews.create({
      accountId: null,
      title: 'nul\u0000title',
      format: 'mjml',
      clients: ['gmail-web'],
      source: '<mjml>a\u0000b</mjml>',
      expiresAt: null,
    });
    const stored = await previews.storeOutcome(preview.id, {
      failure: { code: 'compile_failed', message: 'Unexpected "\u0000" after \ud800 at line 1', line: 1 },
    });
    expect(stored).toBe(true);
    const row = await previews.find(preview.id);
    expect(row?.failure).toEqual({ code: 'compile_failed', message: 'Unexpected "" after \ufffd at line 1', line: 1 });
    expect(row?.title).toBe('nultitle');
    expect((await previews.findForAnalysis(preview.id))?.source).toBe('<mjml>ab</mjml>');
    await db.query('DELETE FROM previews WHERE id = $1', [preview.id]);
  });

  it("stores a preview's files and a result's gate summary holding NUL and lone surrogates, and reads them back as stored", async () => {
    const previews = new PreviewRepository(db, new ScreenshotRepository(db), testRowCipher(db, config));
    const preview = await previews.create({
      accountId: null,
      title: null,
      format: 'jsx',
      clients: ['gmail-web', 'outlook-\u0000windows'],
      source: 'export default () => null;',
      files: { 'a\u0000.tsx': 'x\u0000y', 'b.tsx': '\udc00' },
      mjmlValidation: null,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(preview.createdAt).toBeInstanceOf(Date);
    expect(await previews.findForAnalysis(preview.id)).toEqual({
      id: preview.id,
      accountId: null,
      format: 'jsx',
      clients: ['gmail-web', 'outlook-windows'],
      source: 'export default () => null;',
      files: { 'a.tsx': 'xy', 'b.tsx': '\ufffd' },
      mjmlValidation: null,
      status: 'queued',
    });
    const storedResult = Buffer.from([0, 1, 2, 255]);
    expect(await previews.storeOutcome(preview.id, { storedResult, overallScore: 77, gateSummary: '{"a":"\u0000"}', accountId: null })).toBe(true);
    // First writer wins: a second outcome changes nothing.
    expect(await previews.storeOutcome(preview.id, { failure: { code: 'internal_error', message: 'late' } })).toBe(false);
    const row = await previews.find(preview.id);
    expect(row).toMatchObject({
      id: preview.id,
      status: 'completed',
      overallScore: 77,
      failure: null,
      accountId: null,
      title: null,
      format: 'jsx',
      screenshots: null,
      renderedReports: null,
    });
    expect(row?.result?.equals(storedResult)).toBe(true);
    expect(row?.createdAt.getTime()).toBe(preview.createdAt.getTime());
    expect(row?.completedAt).toBeInstanceOf(Date);
    expect((await previews.findGateSummary(preview.id))?.gateSummary).toBe('{"a":""}');
    await db.query('DELETE FROM previews WHERE id = $1', [preview.id]);
  });

  it('stores a DNS audit whose TXT records and keys hold NUL', async () => {
    const audits = new DomainAuditRepository(db, new WebhookRepository(db, testRowCipher(db, config)));
    const jobId = `nul-audit-${Date.now()}`;
    // Not an audit's whole shape: what matters here is what the column's transformer does to the strings in it.
    const result: unknown = { spf: { valid: false, record: 'v=spf1 \u0000include:x -all', warnings: ['TXT "\u0000"'] }, ['key\u0000']: { nested: ['\udc00'] } };
    const outcome = await audits.record(
      {
        jobId,
        monitoredDomainId: null,
        accountId: null,
        domain: 'example.com',
        trigger: 'on-demand',
        windowKey: null,
        score: 40,
        inconclusive: false,
        result: result as DeliverabilityResult,
        checkedAt: new Date(),
      },
      () => ({ driftEvents: [], domain: {} }), // not called: the audit belongs to no monitored domain
    );
    expect(outcome.status).toBe('stored');
    const row = await audits.findByJobId(jobId);
    expect(row?.result).toEqual({ spf: { valid: false, record: 'v=spf1 include:x -all', warnings: ['TXT ""'] }, key: { nested: ['\ufffd'] } });
    await db.query('DELETE FROM domain_audits WHERE job_id = $1', [jobId]);
  });

  it("stores an account's and a key's name with NUL (the CLI's operator commands take them from arguments)", async () => {
    const accounts = new AccountsRepository(db);
    const { account, key } = await accounts.createAccount(`acct\u0000${Date.now()}`, 'free');
    const again = await accounts.findAccount(account.id);
    expect(again?.name).not.toContain('\u0000');
    await accounts.createKey(account.id, 'second\u0000key', { free: 5, pro: 5 });
    const names = (await db.query('SELECT name FROM api_keys WHERE account_id = $1 ORDER BY created_at', [account.id])).map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['default', 'secondkey']));
    expect(key.id).toEqual(expect.any(String));
    await db.query('DELETE FROM api_keys WHERE account_id = $1', [account.id]);
    await db.query('DELETE FROM accounts WHERE id = $1', [account.id]);
  });
});
