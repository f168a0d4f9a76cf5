import type { DataSource } from 'typeorm';
import request from 'supertest';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { csrfIn, signInToDashboard } from '../utils/dashboard-session';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

describe('the dashboard account page (/app/account)', () => {
  const config = testConfig({ TRUSTED_PROXIES: '127.0.0.1' });
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;
  let nextIp = 10;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  async function signIn(key: string): Promise<string> {
    return (await signInToDashboard(api.url, key, `198.51.100.${nextIp++}`)).cookie;
  }

  it('shows and edits the retention within the plan, lists what is kept, and downloads the export', async () => {
    const account = await createTestAccount(db, 'free', `dash-account-${Date.now()}`);
    const cookie = await signIn(account.key);
    const page = await request(api.url).get('/app/account').set('Cookie', cookie).expect(200);
    expect(page.text).toContain('<strong id="retention-days">30</strong>');
    expect(page.text).toContain('max="30"');
    expect(page.text).toContain('href="/app/account/export"');
    expect(page.text).toContain('What Mailproof keeps for this account');
    // Encryption at rest: what is encrypted, the account's own key, and that erasure shreds it.
    const encryption = page.text.slice(page.text.indexOf('id="encryption-title"'));
    expect(encryption).toContain('Encryption at rest');
    expect(encryption).toMatch(/Every email stored for this account is encrypted/);
    expect(encryption).toMatch(/data key of its own/);
    expect(encryption).toMatch(/deletes its data key with its rows/);

    const saved = await request(api.url)
      .post('/app/account')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfIn(page.text), retentionDays: '7' });
    expect(saved.status).toBe(303);
    const after = await request(api.url).get(saved.headers.location).set('Cookie', cookie).expect(200);
    expect(after.text).toContain('<strong id="retention-days">7</strong>');
    expect(after.text).toContain('The retention was saved');
    const tooLong = await request(api.url)
      .post('/app/account')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfIn(page.text), retentionDays: '90' });
    expect(tooLong.status).toBe(403);
    expect(tooLong.text).toContain('at most 30 days');
    const notANumber = await request(api.url)
      .post('/app/account')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfIn(page.text), retentionDays: 'soon' });
    expect(notANumber.status).toBe(400);
    // Without the CSRF token nothing changes.
    await request(api.url).post('/app/account').set('Cookie', cookie).type('form').send({ retentionDays: '0' }).expect(403);
    const [{ retention_days }]: Array<{ retention_days: number }> = await db.query('SELECT retention_days FROM accounts WHERE id = $1', [account.accountId]);
    expect(retention_days).toBe(7);

    const exported = await request(api.url).get('/app/account/export').set('Cookie', cookie).expect(200);
    expect(exported.headers['content-disposition']).toMatch(/attachment/);
    expect(JSON.parse(exported.text).account).toMatchObject({ id: account.accountId, retentionDays: 7 });
  });

  it('erases the account only after its name is typed, then the session and the key are gone', async () => {
    const name = `dash-erase-${Date.now()}`;
    const account = await createTestAccount(db, 'pro', name);
    const cookie = await signIn(account.key);
    const page = await request(api.url).get('/app/account').set('Cookie', cookie).expect(200);
    const wrong = await request(api.url)
      .post('/app/account/erase')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfIn(page.text), confirm: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Nothing was erased');
    expect(await db.query('SELECT id FROM accounts WHERE id = $1', [account.accountId])).toHaveLength(1);

    const erased = await request(api.url)
      .post('/app/account/erase')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrfIn(page.text), confirm: name });
    expect(erased.status).toBe(303);
    expect(erased.headers.location).toBe('/app/sign-in');
    expect(await db.query('SELECT id FROM accounts WHERE id = $1', [account.accountId])).toEqual([]);
    const [record]: Array<{ requested_by: string }> = await db.query(`SELECT requested_by FROM account_erasures ORDER BY erased_at DESC LIMIT 1`);
    expect(record.requested_by).toBe('dashboard');
    await request(api.url).get('/app/account').set('Cookie', cookie).expect(303);
    await request(api.url).get('/api/account').set('Authorization', `Bearer ${account.key}`).expect(401);
  });
});
