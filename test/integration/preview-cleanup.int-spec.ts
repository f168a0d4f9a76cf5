import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DataKeyRepository, DataKeyring, FixRunRepository, PreviewRepository, ScreenshotRepository } from '@mailproof/persistence';
import { startScheduler } from '../../apps/scheduler/src/start-scheduler';
import { PREVIEW_CLEANUP_SCHEDULER_ID } from '../../apps/scheduler/src/preview-cleanup.service';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

describe('anonymous preview and fix run cleanup', () => {
  const config = testConfig({ PREVIEW_CLEANUP_EVERY_MINUTES: 1 });
  const queues = openQueues(config);
  let db: DataSource;
  let scheduler: INestApplicationContext;

  beforeAll(async () => {
    db = await openDatabase(config);
    scheduler = await startScheduler(config);
  });
  afterAll(async () => {
    await scheduler.close();
    await queues.closeAll();
    await db.destroy();
  });

  it('registers one job scheduler and deletes only anonymous previews past their time', async () => {
    const schedulers = await queues.scheduler.getJobSchedulers();
    expect(schedulers.filter((s) => s.key === PREVIEW_CLEANUP_SCHEDULER_ID)).toHaveLength(1);

    const previews = new PreviewRepository(db, new ScreenshotRepository(db), testRowCipher(db, config));
    const account = await createTestAccount(db, 'free');
    const base = { title: null, format: 'html' as const, clients: ['gmail-web'], source: '<p>x</p>' };
    // Expiring in a few seconds: no cleanup (the scheduler's own runs included) can delete it before then,
    // so what follows does not depend on when the scheduled job first runs.
    const expiresAt = new Date(Date.now() + 5_000);
    const expiring = await previews.create({ ...base, accountId: null, expiresAt });
    const fresh = await previews.create({ ...base, accountId: null, expiresAt: new Date(Date.now() + 3_600_000) });
    const saved = await previews.create({ ...base, accountId: account.accountId, expiresAt: null });
    const rowExists = async (id: string) => (await db.query('SELECT 1 FROM previews WHERE id = $1', [id])).length === 1;
    expect(await previews.find(expiring.id, new Date(expiresAt.getTime() - 1_000))).not.toBeNull();
    // Past its time the preview is unreadable at once, before any cleanup: not served, not shareable.
    expect(await previews.find(expiring.id, new Date(expiresAt.getTime() + 1_000))).toBeNull();
    expect(await rowExists(expiring.id)).toBe(true);

    // Once it has expired, run the scheduled job now instead of waiting for its interval: the row itself goes.
    await waitFor(async () => Date.now() > expiresAt.getTime() + 100, 'the preview to expire', 10_000);
    expect(await previews.find(expiring.id)).toBeNull();
    await queues.scheduler.add('preview-cleanup.run', { schemaVersion: 1 });
    await waitFor(async () => !(await rowExists(expiring.id)), 'the expired preview to be deleted', 20_000);
    expect(await previews.find(fresh.id)).not.toBeNull();
    expect(await previews.find(saved.id)).not.toBeNull();
  });

  it('deletes fix runs past their time in the same sweep, and only those', async () => {
    const fixRuns = new FixRunRepository(db, testRowCipher(db, config));
    const account = await createTestAccount(db, 'free');
    const base = { format: 'html' as const, clients: ['gmail-web'], tiers: ['safe'], source: '<p>x</p>' };
    const expiresAt = new Date(Date.now() + 5_000);
    const expiring = await fixRuns.create({ ...base, accountId: account.accountId, expiresAt });
    const fresh = await fixRuns.create({ ...base, accountId: null, expiresAt: new Date(Date.now() + 3_600_000) });
    const rowExists = async (id: string) => (await db.query('SELECT 1 FROM fix_runs WHERE id = $1', [id])).length === 1;
    expect(await fixRuns.find(expiring.id, new Date(expiresAt.getTime() - 1_000))).not.toBeNull();
    // Past its time the run is unreadable at once, before any cleanup.
    expect(await fixRuns.find(expiring.id, new Date(expiresAt.getTime() + 1_000))).toBeNull();
    expect(await rowExists(expiring.id)).toBe(true);

    await waitFor(async () => Date.now() > expiresAt.getTime() + 100, 'the fix run to expire', 10_000);
    await queues.scheduler.add('preview-cleanup.run', { schemaVersion: 1 });
    await waitFor(async () => !(await rowExists(expiring.id)), 'the expired fix run to be deleted', 20_000);
    expect(await rowExists(fresh.id)).toBe(true);
    expect(await fixRuns.find(fresh.id)).not.toBeNull();
  });

  it("shreds anonymous days' data keys once everything they sealed has expired, and keeps the others", async () => {
    const dataKeys = new DataKeyRepository(db, new DataKeyring(config.encryption.keys));
    const day = 86_400_000;
    // ANONYMOUS_PREVIEW_TTL_HOURS is 24: three days ago has expired, yesterday's content may still be read.
    const old = await dataKeys.keyFor(null, new Date(Date.now() - 3 * day));
    const yesterday = await dataKeys.keyFor(null, new Date(Date.now() - day));
    const today = await dataKeys.keyFor(null);
    const account = await dataKeys.keyFor((await createTestAccount(db, 'free')).accountId);
    const keyExists = async (id: string) => (await db.query('SELECT 1 FROM account_data_keys WHERE id = $1', [id])).length === 1;
    await queues.scheduler.add('preview-cleanup.run', { schemaVersion: 1 });
    await waitFor(async () => !(await keyExists(old.id)), "the expired day's data key to be destroyed", 20_000);
    for (const kept of [yesterday, today, account]) expect(await keyExists(kept.id)).toBe(true);
  });
});
