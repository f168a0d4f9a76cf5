import { execFileSync } from 'node:child_process';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { PreviewRepository, ScreenshotRepository } from '@mailproof/persistence';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { pixelAt, solidPng, startRecordingServer } from '../utils/loopback-servers';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { startWorkerPreview } from '../utils/worker-preview';

// API (in-process) -> preview.analyze (worker-preview process) -> render.screenshots (worker-render process,
// real Chromium) -> PostgreSQL -> GET /screenshots/<sha256>.png.
const DARK_BOX_EMAIL = `<!doctype html>
<html><head>
<meta name="color-scheme" content="light dark">
<style>
  body { margin: 0; background: #ffffff; }
  .box { width: 200px; height: 100px; background: #ff0000; }
  @media (prefers-color-scheme: dark) { .box { background: #00ff00 !important; } }
</style>
</head><body>
<div class="box"></div>
<p style="margin:0;color:#cccccc">Faint text</p>
<img src="IMAGE_URL" width="120" height="60" style="display:block" alt="logo">
</body></html>`;

const SHOT_URL = /^http:\/\/[^/]+\/screenshots\/([0-9a-f]{64})\.png$/;

/** Direct children of a process, with their command names. */
function childProcessesOf(parent: number): Array<{ pid: number; command: string }> {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, ppid]) => Number(ppid) === parent)
    .map(([pid, , command]) => ({ pid: Number(pid), command: command ?? '' }));
}

describe('screenshots through the render worker', () => {
  let images: Awaited<ReturnType<typeof startRecordingServer>>;
  const config = testConfig({ PREVIEW_RENDER_WAIT_MS: 30_000 });
  const impatient = testConfig({ QUEUE_PREFIX: config.queue.prefix, PREVIEW_RENDER_WAIT_MS: 0 });
  const queues = openQueues(config);
  let api: RunningApi;
  let impatientApi: RunningApi;
  let previewWorker: AppProcess;
  let renderWorker: AppProcess;
  let db: DataSource;
  let email: string;

  const fetchPng = async (url: string) => {
    const path = new URL(url).pathname;
    const response = await request(api.url)
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    return response;
  };

  beforeAll(async () => {
    images = await startRecordingServer('127.0.0.2', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(solidPng(120, 60, [0, 0, 255]));
    });
    email = DARK_BOX_EMAIL.replace('IMAGE_URL', `${images.origin}/logo.png`);
    db = await openDatabase(config);
    previewWorker = await startWorkerPreview(config, queues);
    renderWorker = startAppProcess('worker-render', {
      QUEUE_PREFIX: config.queue.prefix,
      MIGRATE_ON_START: 'false',
      SSRF_ALLOWED_ADDRESSES: '127.0.0.2',
      WORKER_RENDER_CONCURRENCY: '2',
    });
    await waitFor(async () => (await queues.render.getWorkersCount()) > 0, 'the worker-render process to consume render', 30_000);
    api = await startTestApi(config);
    impatientApi = await startTestApi(impatient);
  }, 90_000);

  afterAll(async () => {
    await api?.close();
    await impatientApi?.close();
    await renderWorker?.stop();
    await previewWorker?.stop();
    await queues.closeAll();
    await db?.destroy();
    await images?.close();
  });

  it('renders every requested client light and dark when the preview asks, with pixels, images and the rendered reports', async () => {
    const response = await request(api.url)
      .post('/api/preview')
      .send({ html: email, clients: ['apple-mail-macos', 'gmail-web', 'apple-mail-ios'], screenshots: true })
      .expect(200);
    const shots = response.body.screenshots as Record<string, string>;
    expect(Object.keys(shots).sort()).toEqual([
      'apple-mail-ios-dark',
      'apple-mail-ios-light',
      'apple-mail-macos-dark',
      'apple-mail-macos-light',
      'gmail-web-dark',
      'gmail-web-light',
      // The reference rendering (the email as written), per viewport the clients use and scheme (docs/visual.md).
      'reference-mobile-dark',
      'reference-mobile-light',
      'reference-wide-dark',
      'reference-wide-light',
    ]);
    for (const url of Object.values(shots)) expect(url).toMatch(SHOT_URL);

    const appleDark = await fetchPng(shots['apple-mail-macos-dark']);
    expect(appleDark.status).toBe(200);
    expect(appleDark.headers['content-type']).toBe('image/png');
    expect(appleDark.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(appleDark.headers['x-content-type-options']).toBe('nosniff');
    expect(appleDark.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(pixelAt(appleDark.body, 50, 50)).toEqual([0, 255, 0]);
    const gmailDark = await fetchPng(shots['gmail-web-dark']);
    expect(pixelAt(gmailDark.body, 50, 50)).toEqual([255, 0, 0]);
    // The image, fetched by the worker from the allow-listed loopback server, is in the picture (below the box and text).
    const appleLight = await fetchPng(shots['apple-mail-macos-light']);
    const bluePixels = [120, 130, 140, 150].map((y) => pixelAt(appleLight.body, 30, y)).filter(([r, g, b]) => r === 0 && g === 0 && b === 255);
    expect(bluePixels.length).toBeGreaterThan(0);
    expect(images.hits).toContain('/logo.png');

    expect(response.body.overflowReport.clients.map((c: { clientId: string }) => c.clientId).sort()).toEqual([
      'apple-mail-ios',
      'apple-mail-macos',
      'gmail-web',
    ]);
    const faint = response.body.mobileContrast.clients.find((c: { clientId: string; mode: string }) => c.clientId === 'apple-mail-ios' && c.mode === 'light');
    expect(faint.failures).toEqual([expect.objectContaining({ sample: 'Faint text', line: 11 })]);
    expect(response.body.visualReport.references.wide).toBe('apple-mail-macos');
    // The dark reference applies the email's own dark rule (green); Apple Mail paints the author's page
    // (the same picture, score 0); Gmail keeps the box red in dark mode: it departs from the reference.
    const referenceDark = await fetchPng(shots['reference-wide-dark']);
    expect(pixelAt(referenceDark.body, 50, 50)).toEqual([0, 255, 0]);
    expect(shots['reference-wide-light']).toBe(shots['apple-mail-macos-light']);
    const divergence = response.body.visualReport.divergence;
    expect(divergence['apple-mail-macos']).toEqual({ light: { score: 0, regions: [] }, dark: { score: 0, regions: [] } });
    expect(divergence['gmail-web'].light).toEqual({ score: 0, regions: [] });
    expect(divergence['gmail-web'].dark.score).toBeGreaterThan(0);
    expect(divergence['gmail-web'].dark.regions[0].box).toMatchObject({ x: 0, y: 0 });

    // The stored preview answers the same.
    const stored = await request(api.url).get(`/api/preview/${response.body.id}`).expect(200);
    expect(stored.body.screenshots).toEqual(shots);
    expect(stored.body.mobileContrast).toEqual(response.body.mobileContrast);
  });

  it('renders nothing for a preview that did not ask (the reports stay null)', async () => {
    const response = await request(api.url)
      .post('/api/preview')
      .send({ html: email, clients: ['gmail-web'] })
      .expect(200);
    expect(response.body.screenshots).toBeUndefined();
    expect(response.body).toMatchObject({ overflowReport: null, visualReport: null, mobileContrast: null });
    const renderJobs = await queues.render.getJobs(['waiting', 'active', 'completed', 'delayed', 'waiting-children']);
    expect(renderJobs.filter((job) => (job.data as { previewId?: string }).previewId === response.body.id)).toEqual([]);
  });

  it('renders a stored preview on request, only what is asked, and merges it into the stored preview', async () => {
    const created = await request(api.url)
      .post('/api/preview')
      .send({ html: email, clients: ['gmail-ios', 'outlook-windows-legacy'] })
      .expect(200);
    const id = created.body.id as string;
    const answer = await request(api.url)
      .post(`/api/preview/${id}/screenshots`)
      .send({ clients: ['outlook-windows-legacy'], modes: ['dark'] })
      .expect(200);
    expect(answer.body).toMatchObject({ screenshotStatus: 'complete', captured: ['outlook-windows-legacy-dark'], failed: [] });
    expect(Object.keys(answer.body.screenshots).sort()).toEqual(['outlook-windows-legacy-dark', 'reference-wide-dark']);
    // Full inversion: the white body is dark in Outlook Classic's dark view.
    const png = await fetchPng(answer.body.screenshots['outlook-windows-legacy-dark']);
    const [r, g, b] = pixelAt(png.body, 600, 20);
    expect(r + g + b).toBeLessThan(200);

    const all = await request(api.url).post(`/api/preview/${id}/screenshots`).send({}).expect(200);
    expect(all.body.screenshotStatus).toBe('complete');
    expect(all.body.captured.sort()).toEqual(['gmail-ios-dark', 'gmail-ios-light', 'outlook-windows-legacy-dark', 'outlook-windows-legacy-light']);
    const stored = await request(api.url).get(`/api/preview/${id}`).expect(200);
    expect(Object.keys(stored.body.screenshots).sort()).toEqual([
      ...all.body.captured.sort(),
      'reference-mobile-dark',
      'reference-mobile-light',
      'reference-wide-dark',
      'reference-wide-light',
    ]);
    // The divergence of the first render (Outlook Classic's dark) merged with the second's.
    expect(Object.keys(stored.body.visualReport.divergence).sort()).toEqual(['gmail-ios', 'outlook-windows-legacy']);
    expect(Object.keys(stored.body.visualReport.divergence['outlook-windows-legacy']).sort()).toEqual(['dark', 'light']);
    expect(stored.body.mobileContrast.clients.map((c: { clientId: string; mode: string }) => `${c.clientId}-${c.mode}`).sort()).toEqual([
      'gmail-ios-dark',
      'gmail-ios-light',
    ]);
  });

  it('answers pending within a zero wait, and the preview gains the screenshots when rendering ends', async () => {
    const created = await request(impatientApi.url)
      .post('/api/preview')
      .send({ html: email, clients: ['yahoo-mail'], screenshots: true })
      .expect(200);
    expect(created.body.screenshots).toBeUndefined();
    const answer = await request(impatientApi.url).post(`/api/preview/${created.body.id}/screenshots`).send({}).expect(200);
    expect(['pending', 'complete']).toContain(answer.body.screenshotStatus);
    const stored = await waitFor(
      async () => {
        const body = (await request(api.url).get(`/api/preview/${created.body.id}`).expect(200)).body;
        return body.screenshots && Object.keys(body.screenshots).length === 2 ? body : null;
      },
      'the screenshots to be stored',
      60_000,
      250,
    );
    expect(stored.overflowReport.clients[0].clientId).toBe('yahoo-mail');
  });

  it('completes a render job whose Chromium is killed in the middle of it (the browser is relaunched)', async () => {
    // A page that takes a while to lay out, so the kill lands while it is painted.
    const heavy = `<!doctype html><html><body>${'<p>cell'.repeat(60_000)}</body></html>`;
    const created = await request(impatientApi.url)
      .post('/api/preview')
      .send({ html: heavy, clients: ['apple-mail-macos'] })
      .expect(200);
    const answer = await request(impatientApi.url)
      .post(`/api/preview/${created.body.id}/screenshots`)
      .send({ modes: ['light'] })
      .expect(200);
    expect(answer.body.screenshotStatus).toBe('pending');
    const browsers = await waitFor(() => {
      const pids = childProcessesOf(renderWorker.child.pid!)
        .filter((child) => /chrom/.test(child.command))
        .map((child) => child.pid);
      return pids.length > 0 ? pids : null;
    }, 'the worker-render process to run Chromium');
    for (const pid of browsers) process.kill(pid, 'SIGKILL');
    const stored = await waitFor(
      async () => {
        const body = (await request(api.url).get(`/api/preview/${created.body.id}`).expect(200)).body;
        return body.screenshots?.['apple-mail-macos-light'] ? body : null;
      },
      'the screenshot to be stored after the relaunch',
      90_000,
      250,
    );
    expect(stored.screenshots['apple-mail-macos-light']).toMatch(SHOT_URL);
    // The worker itself never died.
    expect(renderWorker.child.exitCode).toBeNull();
  }, 120_000);

  it('refuses bad requests with problem+json', async () => {
    const created = await request(api.url)
      .post('/api/preview')
      .send({ html: '<p>hello</p>', clients: ['gmail-web'] })
      .expect(200);
    const id = created.body.id as string;
    const unknownClient = await request(api.url)
      .post(`/api/preview/${id}/screenshots`)
      .send({ clients: ['outlook-2003'] })
      .expect(400);
    expect(unknownClient.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(unknownClient.body).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(unknownClient.body)).toContain('apple-mail-ios');
    const notAnalyzed = await request(api.url)
      .post(`/api/preview/${id}/screenshots`)
      .send({ clients: ['aol'] })
      .expect(400);
    expect(notAnalyzed.body.errors).toEqual([expect.objectContaining({ field: 'clients' })]);
    await request(api.url)
      .post(`/api/preview/${id}/screenshots`)
      .send({ modes: ['sepia'] })
      .expect(400);
    await request(api.url).post(`/api/preview/${id}/screenshots`).send({ modes: [] }).expect(400);
    await request(api.url).post('/api/preview').send({ html: '<p>x</p>', screenshots: 'yes' }).expect(400);
    const missing = await request(api.url).post('/api/preview/prv_doesnotexist000000000000/screenshots').send({}).expect(404);
    expect(missing.body.code).toBe('not_found');
    await request(api.url).get('/screenshots/not-a-hash.png').expect(404);
    await request(api.url)
      .get(`/screenshots/${'0'.repeat(64)}.png`)
      .expect(404);
  });

  it("keeps account previews to their account, and deletes a preview's screenshots with it unless another preview shows them", async () => {
    const owner = await createTestAccount(db, 'free');
    const stranger = await createTestAccount(db, 'free');
    // Unique per run: earlier runs' previews (account previews never expire) must not share this PNG.
    const html = `<!doctype html><html><body style="margin:0;background:#123456"><p style="color:#fff">Owned ${Date.now()}</p></body></html>`;
    const first = await request(api.url)
      .post('/api/preview')
      .set('x-api-key', owner.key)
      .send({ html, clients: ['aol'], screenshots: true })
      .expect(200);
    const second = await request(api.url)
      .post('/api/preview')
      .set('x-api-key', owner.key)
      .send({ html, clients: ['aol'], screenshots: true })
      .expect(200);
    await request(api.url).post(`/api/preview/${first.body.id}/screenshots`).send({}).expect(404);
    await request(api.url).post(`/api/preview/${first.body.id}/screenshots`).set('x-api-key', stranger.key).send({}).expect(404);
    const url = first.body.screenshots['aol-light'] as string;
    // Same markup, same pixels: both previews show one stored PNG.
    expect(second.body.screenshots['aol-light']).toBe(url);
    // A share page shows up to 42 screenshots at once: fetching them is never rate-limited (an API whose
    // anonymous limit is 5 a minute serves the PNG 10 times, and refuses its 6th call of a limited route).
    const strict = await startTestApi(testConfig({ QUEUE_PREFIX: `${config.queue.prefix}-strict`, RATE_LIMIT_ANONYMOUS: 5 }));
    try {
      const path = new URL(url).pathname;
      for (let i = 0; i < 10; i++) await request(strict.url).get(path).expect(200);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await request(strict.url).get('/api/clients')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await strict.close();
    }
    // The share page shows the screenshots and the rendered reports.
    const share = await request(api.url).post('/api/share').set('x-api-key', owner.key).send({ previewId: first.body.id }).expect(201);
    const page = await request(api.url).get(new URL(share.body.url).pathname).expect(200);
    expect(page.text).toContain(`<img src="${url}"`);
    expect(page.text).toContain('Measured in the rendered pages');
    expect(page.text).toContain('No client scrolls sideways');
    await request(api.url).delete(`/api/preview/${first.body.id}`).set('x-api-key', owner.key).expect(204);
    expect((await fetchPng(url)).status).toBe(200);
    await request(api.url).delete(`/api/preview/${second.body.id}`).set('x-api-key', owner.key).expect(204);
    expect((await fetchPng(url)).status).toBe(404);
  });

  it('deletes the screenshots of expired anonymous previews with them', async () => {
    const html = `<!doctype html><html><body style="margin:0;background:#654321"><p>Expiring ${Date.now()}</p></body></html>`;
    const created = await request(api.url)
      .post('/api/preview')
      .send({ html, clients: ['fastmail'], screenshots: true })
      .expect(200);
    const url = created.body.screenshots['fastmail-light'] as string;
    await db.query("UPDATE previews SET expires_at = now() - interval '1 minute' WHERE id = $1", [created.body.id]);
    await new PreviewRepository(db, new ScreenshotRepository(db), testRowCipher(db, config)).deleteExpired();
    expect((await fetchPng(url)).status).toBe(404);
  });
});
