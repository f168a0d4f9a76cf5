import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import {
  AccountGoneError,
  DataKeyRepository,
  encodePreviewResult,
  EncryptedContentGoneError,
  PreviewRepository,
  type PreviewEntity,
} from '@mailproof/persistence';
import { PreviewAnalysisCache } from '../../apps/api/src/shares/preview-analysis.cache';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
const RESULT = { overallScore: 91, compatibilityScores: {}, cssReport: [], transforms: [], darkMode: null };

/** A completed preview of the account with a stored (encrypted) result, as the worker leaves it. */
async function completedPreview(previews: PreviewRepository, accountId: string, source: string): Promise<PreviewEntity> {
  const preview = await previews.create({ accountId, title: 'memory', format: 'html', clients: ['gmail-web'], source, expiresAt: null });
  await previews.storeOutcome(preview.id, { storedResult: encodePreviewResult(preview.id, RESULT), overallScore: 91, accountId });
  return (await previews.find(preview.id)) as PreviewEntity;
}

/** True once the key can no longer be had in this process (not from its cache either). */
async function keyIsGone(dataKeys: DataKeyRepository, keyId: string): Promise<boolean> {
  return dataKeys.keyById(keyId).then(
    () => false,
    (error: unknown) => error instanceof EncryptedContentGoneError,
  );
}

describe('account erasure and what the API keeps in memory; unreadable rows', () => {
  const config = testConfig({ API_KEY_CACHE_TTL_MS: 5_000 });
  const queues = openQueues(config);
  let db: DataSource;
  let api: RunningApi;
  let otherApi: RunningApi;

  beforeAll(async () => {
    db = await openDatabase(config);
    api = await startTestApi(config);
    otherApi = await startTestApi(config);
  });
  afterAll(async () => {
    await api?.close();
    await otherApi?.close();
    await queues.closeAll(true);
    await db?.destroy();
  });

  it('drops the account data key and the decoded analyses from memory on the erasing replica and, by the erasure message, on the others', async () => {
    const account = await createTestAccount(db, 'pro');
    const preview = await completedPreview(api.app.get(PreviewRepository), account.accountId, '<p>in memory</p>');
    const [{ id: keyId }]: Array<{ id: string }> = await db.query('SELECT id FROM account_data_keys WHERE account_id = $1', [account.accountId]);
    // Both replicas hold the unwrapped key and a decoded analysis of the preview.
    for (const replica of [api, otherApi]) {
      await replica.app.get(DataKeyRepository).keyById(keyId);
      const stored = (await replica.app.get(PreviewRepository).find(preview.id)) as PreviewEntity;
      expect(replica.app.get(PreviewAnalysisCache).analysisOf(stored)?.overallScore).toBe(91);
      expect(replica.app.get(PreviewAnalysisCache).usage.entries).toBeGreaterThan(0);
    }

    await request(api.url).delete('/api/account').set(auth(account.key)).set('Mailproof-Confirm', 'delete').expect(200);

    expect(await keyIsGone(api.app.get(DataKeyRepository), keyId)).toBe(true);
    expect(api.app.get(PreviewAnalysisCache).usage.entries).toBe(0);
    await waitFor(() => keyIsGone(otherApi.app.get(DataKeyRepository), keyId), 'the other replica to forget the erased account data key');
    expect(otherApi.app.get(PreviewAnalysisCache).usage.entries).toBe(0);

    // A write for the erased account (a replica that had not heard yet) cannot create a key for it: 401 by the filter, not a 500.
    await expect(api.app.get(DataKeyRepository).keyFor(account.accountId)).rejects.toBeInstanceOf(AccountGoneError);
    await expect(api.app.get(DataKeyRepository).keyFor(randomUUID())).rejects.toBeInstanceOf(AccountGoneError);
  });

  it('exports rows it cannot decrypt as entries saying why, keeps the 200 whole, and answers a key the ring lacks with 503 naming it', async () => {
    const account = await createTestAccount(db, 'pro');
    const previews = api.app.get(PreviewRepository);
    const dataKeys = api.app.get(DataKeyRepository);
    const shredded = await completedPreview(previews, account.accountId, '<p>shredded</p>');
    await dataKeys.destroyForAccount(account.accountId);
    const kept = await completedPreview(previews, account.accountId, '<p>kept-marker</p>');

    const exported = await request(api.url).get('/api/account/export').set(auth(account.key)).expect(200);
    const data = JSON.parse(exported.text) as { previews: Array<Record<string, unknown>> };
    const byId = new Map(data.previews.map((row) => [row.id, row]));
    expect(byId.get(shredded.id)).toMatchObject({ contentUnreadable: { reason: 'content_gone' } });
    expect(byId.get(kept.id)).toMatchObject({ source: '<p>kept-marker</p>', result: { overallScore: 91 } });

    // The account's key wrapped by a key the ring does not hold (removed from MAILPROOF_DATA_KEYS by mistake).
    const [{ kek_id: wrappedBy }]: Array<{ kek_id: string }> = await db.query('SELECT kek_id FROM account_data_keys WHERE account_id = $1', [
      account.accountId,
    ]);
    await db.query(`UPDATE account_data_keys SET kek_id = 'removed-kek' WHERE account_id = $1`, [account.accountId]);
    try {
      dataKeys.forgetAccount(account.accountId);
      const again = await request(api.url).get('/api/account/export').set(auth(account.key)).expect(200);
      const rows = (JSON.parse(again.text) as { previews: Array<Record<string, unknown>> }).previews;
      expect(rows.find((row) => row.id === kept.id)).toMatchObject({ contentUnreadable: { reason: 'data_key_unavailable' } });
      expect(JSON.stringify(rows)).toContain('removed-kek');

      const read = await request(api.url).get(`/api/preview/${kept.id}`).set(auth(account.key)).expect(503);
      expect(read.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(read.body).toMatchObject({ code: 'service_unavailable', keyId: 'removed-kek' });
      expect(JSON.stringify(read.body)).not.toMatch(/\.ts:|at /);
    } finally {
      // Other files share this database: `mailproof keys rotate` (cli-keys) refuses a data key the ring cannot unwrap.
      await db.query('UPDATE account_data_keys SET kek_id = $2 WHERE account_id = $1', [account.accountId, wrappedBy]);
    }
  });
});
