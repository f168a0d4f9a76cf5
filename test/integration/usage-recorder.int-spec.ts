import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { UsageRecorder } from '../../apps/api/src/auth/usage-recorder.service';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { testConfig } from '../utils/test-config';

/**
 * Usage is counted in memory and written once a second (UsageRecorder). When PostgreSQL refuses the write,
 * every request counted must survive to the next write: the real table is renamed for a moment, so each
 * write fails as it would in a blip, while bursts of requests arrive.
 */
describe('UsageRecorder when the usage write fails', () => {
  const config = testConfig();
  let api: RunningApi;
  let db: DataSource;
  let renamed = false;

  const storedCounts = async (keyId: string, table = 'usage_counters') => {
    const rows: Array<{ kind: string; count: number }> = await db.query(
      `SELECT kind, sum(count)::int AS count FROM ${table} WHERE key_id = $1 GROUP BY kind ORDER BY kind`,
      [keyId],
    );
    return Object.fromEntries(rows.map((row) => [row.kind, row.count]));
  };
  const renameAway = async () => {
    await db.query('ALTER TABLE usage_counters RENAME TO usage_counters_away');
    renamed = true;
  };
  const renameBack = async () => {
    await db.query('ALTER TABLE usage_counters_away RENAME TO usage_counters');
    renamed = false;
  };
  /** `count` requests at once with this key: previews that do not exist (kind preview) or an unknown route (kind other). */
  const burst = (key: string, count: number, kind: 'preview' | 'other') =>
    Promise.all(
      Array.from({ length: count }, () =>
        request(api.url)
          .get(kind === 'preview' ? `/api/preview/${randomUUID()}` : '/api/no-such-route')
          .set('x-api-key', key)
          .expect(404),
      ),
    );

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
  });

  afterAll(async () => {
    // A failed test must not leave the table away for the next file of this worker.
    if (renamed) await renameBack();
    await api?.close();
    await db?.destroy();
  });

  it('keeps the exact count of every request sent while the table was away and writes it once the table is back', async () => {
    const account = await createTestAccount(db, 'pro');
    const recorder = api.app.get(UsageRecorder);
    await renameAway();
    await burst(account.key, 30, 'preview');
    await burst(account.key, 12, 'other');
    await recorder.flush();
    // The write failed: the table (under its other name) holds nothing of this key.
    expect(await storedCounts(account.keyId, 'usage_counters_away')).toEqual({});
    // More requests on top of the counts put back, and a second failed write.
    await burst(account.key, 9, 'preview');
    await recorder.flush();
    expect(await storedCounts(account.keyId, 'usage_counters_away')).toEqual({});
    await renameBack();
    await recorder.flush();
    expect(await storedCounts(account.keyId)).toEqual({ other: 12, preview: 39 });
    // Nothing is left pending to be written twice.
    await recorder.flush();
    expect(await storedCounts(account.keyId)).toEqual({ other: 12, preview: 39 });
  });
});
