import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { GateRunRepository, WebhookRepository } from '@mailproof/persistence';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { queuePrefixVariable, startWorkerPreview } from '../utils/worker-preview';

/**
 * The gate's visual check end to end (docs/gate.md, "The visual check"): the API in-process, real
 * worker-preview and worker-render processes (Chromium), PostgreSQL, Redis and BullMQ. A ref gated with
 * `visual`: the first version passes and becomes the baseline; a version that lays the columns out with
 * display:flex (Word, outlook-windows-legacy, drops it and the columns stack) fails naming that client, its
 * region and the elements; a version that changes only the headline's words passes.
 */
const PAIRS = join(__dirname, '..', 'fixtures', 'visual-pairs');
const V1 = readFileSync(join(PAIRS, 'newsletter-flex', 'v1.html'), 'utf8');
const BROKEN = readFileSync(join(PAIRS, 'newsletter-flex', 'v2.html'), 'utf8');
const TEXT_ONLY = readFileSync(join(PAIRS, 'newsletter-text-headline', 'v2.html'), 'utf8');
const CLIENTS = ['apple-mail-macos', 'gmail-web', 'outlook-windows-legacy'];

describe('the gate with the visual check', () => {
  const config = testConfig({ GATE_VISUAL_BUDGET_MS: 90_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let previewWorker: AppProcess;
  let renderWorker: AppProcess;
  let db: DataSource;
  let pro: string;
  let accountId: string;

  beforeAll(async () => {
    db = await openDatabase(config);
    previewWorker = await startWorkerPreview(config, queues, {}, ['preview', 'gate']);
    renderWorker = startAppProcess('worker-render', { QUEUE_PREFIX: queuePrefixVariable(config), MIGRATE_ON_START: 'false', RENDER_IMAGES: 'false' });
    await waitFor(async () => (await queues.render.getWorkersCount()) > 0, 'the worker-render process to consume render', 30_000);
    api = await startTestApi(config);
    ({ key: pro, accountId } = await createTestAccount(db, 'pro'));
  }, 90_000);

  afterAll(async () => {
    await api?.close();
    await renderWorker?.stop();
    await previewWorker?.stop();
    await queues.closeAll();
    await db?.destroy();
  });

  const gate = (body: Record<string, unknown>) =>
    request(api.url)
      .post('/api/gate')
      .set('Authorization', `Bearer ${pro}`)
      .send({ clients: CLIENTS, checks: ['compatibility', 'visual'], threshold: 0, failOnError: false, ...body });

  it('refuses visual without a ref: 400 validation_failed naming ref, and nothing is run', async () => {
    const response = await gate({ html: V1 }).expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'ref' })]);
    const runs = await request(api.url).get('/api/gate/runs').set('Authorization', `Bearer ${pro}`).expect(200);
    expect(runs.body.total).toBe(0);
  });

  it('is opt-in: without it in checks, nothing is painted and the verdict has no visual family', async () => {
    const response = await request(api.url)
      .post('/api/gate')
      .set('Authorization', `Bearer ${pro}`)
      .send({ html: V1, ref: 'visual/opt-in', clients: CLIENTS })
      .expect(200);
    expect(response.body.checks).toEqual(['compatibility', 'content', 'regression', 'message']);
    const preview = await request(api.url).get(`/api/preview/${response.body.previewId}`).set('Authorization', `Bearer ${pro}`).expect(200);
    expect(preview.body.screenshots ?? null).toBeNull();
  });

  it('passes the first version, fails a version broken for one client naming it, and passes a text-only change', async () => {
    const ref = 'emails/newsletter.html';
    const first = await gate({ html: V1, ref }).expect(200);
    expect(first.body).toMatchObject({ passed: true, checks: ['compatibility', 'visual'], failures: [] });
    expect(first.body.notes).toEqual([expect.objectContaining({ family: 'visual', check: 'divergence', reason: expect.stringMatching(/no visual baseline/) })]);

    // The baseline keeps the divergence per client and the reference's fingerprint, sealed with the account's key.
    const [raw] = await db.query('SELECT visual FROM gate_baselines WHERE account_id = $1 AND ref = $2', [accountId, ref]);
    expect(typeof raw.visual).toBe('string');
    expect(raw.visual).toMatch(/^mpe1:/);
    const cipher = testRowCipher(db, config);
    const runs = new GateRunRepository(db, new WebhookRepository(db, cipher), cipher);
    const baseline = await runs.baseline(accountId, ref);
    expect(Object.keys(baseline?.visual?.divergence ?? {}).sort()).toEqual(CLIENTS);
    expect(baseline?.visual?.reference['wide-light']).toMatchObject({ tile: 32 });
    // The account's export carries it opened, with the baseline.
    const exported = await request(api.url).get('/api/account/export').set('Authorization', `Bearer ${pro}`).expect(200);
    const exportedBaseline = (JSON.parse(exported.text) as { gateBaselines: Array<{ id: string; visual: unknown }> }).gateBaselines.find(
      (row) => row.id === ref,
    );
    expect(exportedBaseline?.visual).toEqual(baseline?.visual);

    const broken = await gate({ html: BROKEN, ref, updateBaseline: 'never' }).expect(200);
    expect(broken.body.passed).toBe(false);
    expect(broken.body.baseline).toEqual({ ref, comparedTo: expect.any(String) });
    const visual = (broken.body.failures as Array<Record<string, unknown>>).filter((failure) => failure.family === 'visual');
    expect(visual.map((failure) => failure.clientId)).toContain('outlook-windows-legacy');
    expect(visual.map((failure) => failure.clientId)).not.toContain('apple-mail-macos');
    const word = visual.find((failure) => failure.clientId === 'outlook-windows-legacy' && failure.scheme === 'light') as {
      score: number;
      baselineScore: number;
      threshold: number;
      referenceChange: number;
      regions: Array<{ box: { y: number; height: number }; elements: Array<{ selector: string; line: number | null }> }>;
    };
    expect(word.score - word.baselineScore).toBeGreaterThan(word.threshold);
    expect(word.referenceChange).toBeLessThan(25);
    expect(word.regions.length).toBeGreaterThan(0);
    // The region is over the columns: an element under it is the flex container or one of its columns (its source lines).
    const flexLine = BROKEN.split('\n').findIndex((line) => line.includes('class="cols-flex"')) + 1;
    expect(
      word.regions.some((region) => region.elements.some((element) => element.line !== null && element.line >= flexLine && element.line <= flexLine + 3)),
    ).toBe(true);

    // The run record says the same, and the failed run left the baseline where it was.
    const stored = await request(api.url).get(`/api/gate/runs/${broken.body.runId}`).set('Authorization', `Bearer ${pro}`).expect(200);
    expect(stored.body.verdict.failures).toEqual(broken.body.failures);
    expect((await runs.baseline(accountId, ref))?.runId).toBe(first.body.runId);

    const textOnly = await gate({ html: TEXT_ONLY, ref, updateBaseline: 'never' }).expect(200);
    expect(textOnly.body.failures).toEqual([]);
    expect(textOnly.body.passed).toBe(true);
  }, 180_000);
});
