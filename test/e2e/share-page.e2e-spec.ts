import type { INestApplicationContext } from '@nestjs/common';
import type { Browser } from 'puppeteer-core';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { startWorkerPreview } from '../../apps/worker-preview/src/start-worker-preview';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { launchChromium } from '../utils/chromium';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

describe('sharing previews and the public share page', () => {
  const config = testConfig({ PREVIEW_BUDGET_MS: 15_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: INestApplicationContext;
  let db: DataSource;
  let browser: Browser & { cleanup(): Promise<void> };
  let free: { accountId: string; key: string };
  let pro: { accountId: string; key: string };

  // A hostile email: a script that would leave traces, a tracking pixel and a stylesheet on other hosts.
  const canaryPath = '/script-ran-canary';
  const hostileEmail = (apiUrl: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile</title>
<meta name="color-scheme" content="light dark">
<link rel="stylesheet" href="http://cdn.mailproof-test.invalid/style.css">
<style>.box { color: #222222; background-color: #fafafa; } @media (prefers-color-scheme: dark) { .box { background-color: #111111; color: #eeeeee; } }</style>
</head><body>
<table role="presentation" width="600"><tr><td class="box" style="padding:16px">Hello from the shared email
<img src="http://tracker.mailproof-test.invalid/pixel.gif" width="1" height="1" alt="">
<script>console.log('EMAIL-SCRIPT-RAN'); new Image().src = '${apiUrl}${canaryPath}';</script>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="" onload="console.log('EMAIL-SCRIPT-RAN'); new Image().src = '${apiUrl}${canaryPath}?onload';">
<div style="width:1px;height:1px" onmouseover="console.log('EMAIL-SCRIPT-RAN')"></div>
</td></tr></table></body></html>`;

  beforeAll(async () => {
    db = await openDatabase(config);
    free = await createTestAccount(db, 'free');
    pro = await createTestAccount(db, 'pro');
    worker = await startWorkerPreview(config);
    api = await startTestApi(config);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.cleanup();
    await api.close();
    await worker.close();
    await queues.closeAll();
    await db.destroy();
  });

  async function sharedPreview(key: string, html: string, extra: object = {}) {
    const preview = await request(api.url).post('/api/preview').set('x-api-key', key).send({ html, title: 'Launch email', ...extra }).expect(200);
    const share = await request(api.url).post('/api/share').set('x-api-key', key).send({ previewId: preview.body.id }).expect(201);
    return { preview: preview.body, share: share.body };
  }

  it('creates shr_ links under PUBLIC_BASE_URL: 7 days for free accounts, no expiry for Pro', async () => {
    const freeShare = (await sharedPreview(free.key, hostileEmail(api.url))).share;
    expect(freeShare.id).toMatch(/^shr_[0-9A-Za-z]{24}$/);
    expect(freeShare.url).toBe(`${config.http.publicBaseUrl}/share/${freeShare.id}`);
    const days = (Date.parse(freeShare.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const proShare = (await sharedPreview(pro.key, hostileEmail(api.url))).share;
    expect(proShare.expiresAt).toBeNull();
  });

  it('refuses to share another account\'s preview (404) and needs a key (401)', async () => {
    const { preview } = await sharedPreview(pro.key, hostileEmail(api.url));
    await request(api.url).post('/api/share').set('x-api-key', free.key).send({ previewId: preview.id }).expect(404);
    await request(api.url).post('/api/share').send({ previewId: preview.id }).expect(401);
    await request(api.url).post('/api/share').set('x-api-key', free.key).send({ previewId: 'prv_nope' }).expect(404);
  });

  it('shares anonymous previews and keeps them alive as long as the link', async () => {
    const anonymous = await request(api.url).post('/api/preview').send({ html: hostileEmail(api.url) }).expect(200);
    const share = await request(api.url).post('/api/share').set('x-api-key', pro.key).send({ previewId: anonymous.body.id }).expect(201);
    const [row] = await db.query('SELECT expires_at FROM previews WHERE id = $1', [anonymous.body.id]);
    expect(row.expires_at).toBeNull();
    const json = await request(api.url).get(`/api/share/${share.body.id}`).expect(200);
    // The preview result itself, as POST /api/preview answered it, with the share beside its fields.
    expect(json.body.share).toMatchObject({ id: share.body.id, url: share.body.url, expiresAt: null, createdAt: expect.any(String) });
    expect(json.body.id).toBe(anonymous.body.id);
    expect(json.body.transforms).toHaveLength(21);
    const { share: _share, ...previewFields } = json.body;
    expect(previewFields).toEqual(anonymous.body);
  });

  it('serves a 404 page for unknown and expired links', async () => {
    const unknown = await request(api.url).get('/share/shr_000000000000000000000000').expect(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
    expect(unknown.text).toContain('does not exist or has expired');
    const { share } = await sharedPreview(free.key, hostileEmail(api.url));
    await db.query("UPDATE shares SET expires_at = now() - interval '1 minute' WHERE id = $1", [share.id]);
    await request(api.url).get(`/share/${share.id}`).expect(404);
    await request(api.url).get(`/api/share/${share.id}`).expect(404);
  });

  it('sends a strict Content-Security-Policy and shows email markup only in sandboxed srcdoc frames', async () => {
    const { share } = await sharedPreview(pro.key, hostileEmail(api.url));
    const page = await request(api.url).get(`/share/${share.id}`).expect(200);
    const policy = page.headers['content-security-policy'];
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    const frames = page.text.match(/<iframe[^>]*>/g) ?? [];
    expect(frames).toHaveLength(2);
    for (const frame of frames) {
      expect(frame).toContain('sandbox=""');
      expect(frame).toContain('srcdoc="');
    }
    // Outside the frames, the email's script never appears as markup.
    const outsideFrames = page.text.replace(/<iframe[^>]*>/g, '');
    expect(outsideFrames).not.toContain('<script>console.log');
  });

  it('works in real Chromium: picker and light/dark toggle switch the view, the email script never runs, no request leaves the service', async () => {
    const { share } = await sharedPreview(pro.key, hostileEmail(api.url));
    const page = await browser.newPage();
    const origin = new URL(api.url).origin;
    const requested: string[] = [];
    const consoleLines: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      requested.push(req.url());
      if (req.url().startsWith(origin) || req.url().startsWith('data:')) void req.continue();
      else void req.abort();
    });
    page.on('console', (message) => consoleLines.push(message.text()));
    try {
      await page.goto(`${api.url}/share/${share.id}`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('main[data-ready="true"]', { timeout: 10_000 });
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Launch email');

      const outlook = (await request(api.url).get(`/share/${share.id}/clients/outlook-windows-legacy`).expect(200)).body;
      await page.select('#client-picker', 'outlook-windows-legacy');
      await page.waitForSelector('main[data-client="outlook-windows-legacy"]', { timeout: 10_000 });
      expect(await page.$eval('#frame-light', (f) => (f as HTMLIFrameElement).srcdoc)).toBe(outlook.html);
      expect(await page.$eval('#frame-dark', (f) => (f as HTMLIFrameElement).srcdoc)).toBe(outlook.darkHtml);
      expect(outlook.darkHtml).not.toBe(outlook.html);

      const visible = (selector: string) => page.$eval(selector, (el) => getComputedStyle(el).display !== 'none');
      await page.click('button[data-mode="dark"]');
      expect(await visible('.frame-dark')).toBe(true);
      expect(await visible('.frame-light')).toBe(false);
      expect(await page.$eval('button[data-mode="dark"]', (b) => b.getAttribute('aria-pressed'))).toBe('true');
      await page.click('button[data-mode="light"]');
      expect(await visible('.frame-light')).toBe(true);
      expect(await visible('.frame-dark')).toBe(false);

      // The clients' transforms strip scripts and event handlers already; the frames must hold even
      // if markup with a script reached them, so put one there the way the picker loads markup.
      await page.$eval('#frame-light', (frame, url) => {
        (frame as HTMLIFrameElement).srcdoc = `<p>x</p><script>console.log('EMAIL-SCRIPT-RAN'); new Image().src = '${url}';</script><img src="data:," onerror="console.log('EMAIL-SCRIPT-RAN')">`;
      }, `${api.url}${canaryPath}?injected`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(consoleLines.filter((line) => line.includes('EMAIL-SCRIPT-RAN'))).toEqual([]);
      expect(requested.filter((url) => url.includes(canaryPath))).toEqual([]);
      const foreign = requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('about:'));
      expect(foreign).toEqual([]);
      expect(requested.some((url) => url.endsWith('/share/assets/share.js'))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
