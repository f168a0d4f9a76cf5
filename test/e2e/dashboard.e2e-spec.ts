import type { INestApplicationContext } from '@nestjs/common';
import { mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { AccountsRepository } from '@mailproof/persistence';
import { startWorkerDns } from '../../apps/worker-dns/src/start-worker-dns';
import { startWorkerPreview } from '../../apps/worker-preview/src/start-worker-preview';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { launchChromium } from '../utils/chromium';
import { createTestAccount, openDatabase } from '../utils/database';
import { csrfIn, setCookie, signInToDashboard } from '../utils/dashboard-session';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { divergenceFixture } from '../fixtures/divergence/screenshots';
import { waitFor } from '../utils/wait';

const EMAIL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Spring</title>
<style>.box { color: #222222; background-color: #fafafa; border-radius: 8px; display: flex; }</style></head>
<body><table role="presentation" width="600"><tr><td class="box" style="padding:16px">Spring launch: new colors in store.</td></tr></table></body></html>`;
/** A 1x1 GIF. The emails' images are data: URIs, which the preview frames' CSP allows (img-src 'self' data:), so no page logs a refusal. */
const GIF = 'data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==';
/**
 * An email the safe fixes improve: a layout table without its role, a tracking pixel without alt, a 3-digit
 * hex color and a font stack without a generic family; a content image without alt, which the gate fails
 * and no fix guesses (skipped, with the reason); a merge tag that must come back as it was.
 */
const FIXABLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Autumn</title>
<style>.title { color: #abc; font-family: "Brand Sans"; }</style></head>
<body><table width="600"><tr><td class="title">Hello {{ first_name }}, autumn is here.</td></tr></table>
<img src="${GIF}" width="1" height="1">
<img src="${GIF}" width="600" height="300">
<p><a href="https://shop.example.org/autumn">Shop autumn</a></p></body></html>`;
const HOSTILE_TITLE = '<script>window.__dashboardXss = 1</script><img src=x onerror="window.__dashboardXss = 2">';
/** Where the browser test leaves its screenshots for a person to look at (outside the repository). */
const SCREENSHOT_DIR = process.env.DASHBOARD_SCREENSHOT_DIR;

describe('the dashboard (/app)', () => {
  // Sign-in attempts are limited per client IP; X-Forwarded-For from loopback is believed, so each
  // test signs in from an address of its own and the limit test cannot starve the others.
  // SSRF_ALLOWED_ADDRESSES: the webhooks test's loopback receiver (test settings only; refused in production).
  const config = testConfig({
    PREVIEW_BUDGET_MS: 15_000,
    GATE_BUDGET_MS: 15_000,
    TRUSTED_PROXIES: '127.0.0.1',
    DASHBOARD_SIGN_IN_LIMIT: 5,
    PREVIEW_RENDER_WAIT_MS: 500,
    SSRF_ALLOWED_ADDRESSES: '127.0.0.1',
  });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: INestApplicationContext;
  let db: DataSource;
  let browser: Browser & { cleanup(): Promise<void> };
  let pro: { accountId: string; key: string; keyId: string };
  let nextIp = 10;

  beforeAll(async () => {
    db = await openDatabase(config);
    pro = await createTestAccount(db, 'pro');
    worker = await startWorkerPreview(config);
    api = await startTestApi(config);
    browser = await launchChromium();
    if (SCREENSHOT_DIR) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.cleanup();
    await api?.close();
    await worker?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  /** Signs in over HTTP as the sign-in form does; returns the session cookie and the page's CSRF token. */
  async function signIn(key: string, ip = `198.51.100.${nextIp++}`) {
    const { cookie, setCookie: session } = await signInToDashboard(api.url, key, ip);
    const overview = await request(api.url).get('/app').set('Cookie', cookie).expect(200);
    return { cookie, csrf: csrfIn(overview.text), setCookie: session };
  }

  describe('sessions', () => {
    it('sends pages without a session to the sign-in form and refuses other requests with 401', async () => {
      const page = await request(api.url).get('/app/previews').expect(303);
      expect(page.headers.location).toBe('/app/sign-in');
      const post = await request(api.url).post('/app/domains').type('form').send({ domain: 'example.com' }).expect(401);
      expect(post.headers['content-type']).toMatch(/^application\/problem\+json/);
      // An API key header is not a dashboard session.
      await request(api.url).get('/app').set('x-api-key', pro.key).expect(303);
    });

    it('exchanges a valid key for an HttpOnly, SameSite=Lax session cookie, Secure behind https', async () => {
      const { setCookie: cookie } = await signIn(pro.key);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\/app/);
      expect(cookie).not.toMatch(/Secure/);
      // Behind a TLS-terminating proxy (trusted), the cookie is Secure.
      const ip = '198.51.100.200';
      const form = await request(api.url).get('/app/sign-in').set('X-Forwarded-For', ip).set('X-Forwarded-Proto', 'https').expect(200);
      const formCookie = setCookie(form, 'mp_sign_in')!;
      expect(formCookie).toMatch(/Secure/);
      const res = await request(api.url)
        .post('/app/sign-in')
        .set('X-Forwarded-For', ip)
        .set('X-Forwarded-Proto', 'https')
        .set('Cookie', formCookie.split(';')[0])
        .type('form')
        .send({ _csrf: csrfIn(form.text), key: pro.key })
        .expect(303);
      expect(setCookie(res, 'mp_session')).toMatch(/; Secure/);
    });

    it('refuses an unknown key with the form again (401) and keeps no session', async () => {
      const ip = '198.51.100.201';
      const form = await request(api.url).get('/app/sign-in').set('X-Forwarded-For', ip).expect(200);
      const res = await request(api.url)
        .post('/app/sign-in')
        .set('X-Forwarded-For', ip)
        .set('Cookie', setCookie(form, 'mp_sign_in')!.split(';')[0])
        .type('form')
        .send({ _csrf: csrfIn(form.text), key: 'mp_live_' + 'x'.repeat(40) })
        .expect(401);
      expect(res.text).toContain('That API key is not valid');
      expect(setCookie(res, 'mp_session')).toBeUndefined();
    });

    it('refuses a sign-in whose form token does not match its cookie (login CSRF)', async () => {
      const form = await request(api.url).get('/app/sign-in').set('X-Forwarded-For', '198.51.100.202').expect(200);
      await request(api.url)
        .post('/app/sign-in')
        .set('X-Forwarded-For', '198.51.100.202')
        .type('form')
        .send({ _csrf: csrfIn(form.text), key: pro.key })
        .expect(403);
      await request(api.url)
        .post('/app/sign-in')
        .set('X-Forwarded-For', '198.51.100.202')
        .set('Cookie', setCookie(form, 'mp_sign_in')!.split(';')[0])
        .type('form')
        .send({ _csrf: 'forged', key: pro.key })
        .expect(403);
    });

    it('limits sign-in attempts per client address (DASHBOARD_SIGN_IN_LIMIT), good keys included', async () => {
      const ip = '203.0.113.77';
      const attempt = async () => {
        const form = await request(api.url).get('/app/sign-in').set('X-Forwarded-For', ip).expect(200);
        return request(api.url)
          .post('/app/sign-in')
          .set('X-Forwarded-For', ip)
          .set('Cookie', setCookie(form, 'mp_sign_in')!.split(';')[0])
          .type('form')
          .send({ _csrf: csrfIn(form.text), key: 'mp_live_' + 'y'.repeat(40) });
      };
      for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
      const limited = await attempt();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another address is not affected.
      await signIn(pro.key, '203.0.113.78');
    });

    it('refuses a state change without the CSRF token, with a wrong one, or from another origin (403)', async () => {
      const { cookie, csrf } = await signIn(pro.key);
      for (const send of [{ domain: 'csrf.example.com' }, { domain: 'csrf.example.com', _csrf: 'wrong' }]) {
        const res = await request(api.url).post('/app/domains').set('Cookie', cookie).type('form').send(send).expect(403);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.detail).toMatch(/CSRF/);
      }
      await request(api.url)
        .post('/app/domains')
        .set('Cookie', cookie)
        .set('Origin', 'https://evil.example')
        .type('form')
        .send({ domain: 'csrf.example.com', _csrf: csrf })
        .expect(403);
      await request(api.url).post('/app/sign-out').set('Cookie', cookie).type('form').send({}).expect(403);
      const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM monitored_domains WHERE domain = 'csrf.example.com'`);
      expect(count).toBe(0);
      // With the token the same request goes through (and validates like /api/domains: 400 on a bad domain).
      await request(api.url).post('/app/domains').set('Cookie', cookie).type('form').send({ domain: 'not a domain', _csrf: csrf }).expect(400);
    });

    it('ends the session on sign-out', async () => {
      const { cookie, csrf } = await signIn(pro.key);
      const out = await request(api.url).post('/app/sign-out').set('Cookie', cookie).type('form').send({ _csrf: csrf }).expect(303);
      expect(out.headers.location).toBe('/app/sign-in');
      await request(api.url).get('/app').set('Cookie', cookie).expect(303);
    });

    it('ends the sessions of a key revoked through the API, and of one revoked outside the API (CLI)', async () => {
      const account = await createTestAccount(db, 'free');
      const viaApi = await signIn(account.key);
      const second = (await request(api.url).post('/api/keys').set('x-api-key', account.key).send({ name: 'second' }).expect(201)).body;
      await request(api.url).delete(`/api/keys/${account.keyId}`).set('x-api-key', second.key).expect(204);
      await request(api.url).get('/app').set('Cookie', viaApi.cookie).expect(303);

      const viaCli = await signIn(second.key);
      await new AccountsRepository(db).revokeKey(account.accountId, second.id);
      await request(api.url).get('/app').set('Cookie', viaCli.cookie).expect(303);
    });
  });

  describe('lists read through the API services', () => {
    it('finds saved previews by a part of the title and sorts them by score (also over /api/previews)', async () => {
      const account = await createTestAccount(db, 'free');
      const make = async (title: string, html: string) =>
        (await request(api.url).post('/api/preview').set('x-api-key', account.key).send({ title, html }).expect(200)).body as {
          id: string;
          overallScore: number;
        };
      const plain = await make('Weekly digest 100%', '<p style="color:#111111">Plain</p>');
      const flexy = await make('Weekly flex', EMAIL);
      await make('Receipt', '<p>Receipt</p>');
      const found = await request(api.url).get('/api/previews?q=weekly&sort=score-asc').set('x-api-key', account.key).expect(200);
      expect(found.body.total).toBe(2);
      const expected = [plain, flexy].sort((a, b) => a.overallScore - b.overallScore).map((p) => p.id);
      expect(found.body.previews.map((p: { id: string }) => p.id)).toEqual(expected);
      // LIKE's wildcards are literal: "100%" matches one title, "_" none.
      expect((await request(api.url).get('/api/previews?q=100%25').set('x-api-key', account.key).expect(200)).body.total).toBe(1);
      expect((await request(api.url).get('/api/previews?q=_').set('x-api-key', account.key).expect(200)).body.total).toBe(0);
      await request(api.url).get('/api/previews?sort=title').set('x-api-key', account.key).expect(400);

      const { cookie } = await signIn(account.key);
      const page = await request(api.url).get('/app/previews?q=weekly').set('Cookie', cookie).expect(200);
      expect(page.text).toContain('Weekly flex');
      expect(page.text).not.toContain('Receipt');
    });

    it("does not show another account's preview", async () => {
      const other = await createTestAccount(db, 'free');
      const preview = (await request(api.url).post('/api/preview').set('x-api-key', other.key).send({ title: 'Theirs', html: '<p>x</p>' }).expect(200)).body;
      const { cookie, csrf } = await signIn(pro.key);
      await request(api.url).get(`/app/previews/${preview.id}`).set('Cookie', cookie).expect(404);
      await request(api.url).post(`/app/previews/${preview.id}/delete`).set('Cookie', cookie).type('form').send({ _csrf: csrf }).expect(404);
      await request(api.url).get(`/api/preview/${preview.id}`).set('x-api-key', other.key).expect(200);
    });

    it("does not fix another account's preview or show another account's fix run", async () => {
      const other = await createTestAccount(db, 'free');
      const theirs = (await request(api.url).post('/api/preview').set('x-api-key', other.key).send({ title: 'Theirs', html: FIXABLE }).expect(200)).body;
      const theirFix = (await request(api.url).post('/api/fix').set('x-api-key', other.key).send({ html: FIXABLE }).expect(200)).body;
      const mine = (await request(api.url).post('/api/preview').set('x-api-key', pro.key).send({ title: 'Mine', html: FIXABLE }).expect(200)).body;
      const { cookie, csrf } = await signIn(pro.key);
      await request(api.url).post(`/app/previews/${theirs.id}/fix`).set('Cookie', cookie).type('form').send({ _csrf: csrf }).expect(404);
      await request(api.url).get(`/app/previews/${mine.id}/fix/${theirFix.id}`).set('Cookie', cookie).expect(404);
      // Without the CSRF token nothing is fixed.
      await request(api.url).post(`/app/previews/${mine.id}/fix`).set('Cookie', cookie).type('form').send({}).expect(403);
      const fixed = await request(api.url).post(`/app/previews/${mine.id}/fix`).set('Cookie', cookie).type('form').send({ _csrf: csrf }).expect(303);
      expect(fixed.headers.location).toMatch(new RegExp(`^/app/previews/${mine.id}/fix/fix_`));
      const shown = await request(api.url).get(fixed.headers.location).set('Cookie', cookie).expect(200);
      expect(shown.text).toContain('<h1>Fix: Mine</h1>');
      // The run is the account's: the API reads it with the account's key, and nobody else's.
      const fixId = fixed.headers.location.split('/').pop();
      await request(api.url).get(`/api/fix/${fixId}`).set('x-api-key', pro.key).expect(200);
      await request(api.url).get(`/api/fix/${fixId}`).set('x-api-key', other.key).expect(404);
    });

    it("does not show, test or delete another account's webhook endpoint", async () => {
      const other = await createTestAccount(db, 'free');
      const theirs = (
        await request(api.url)
          .post('/api/webhooks')
          .set('x-api-key', other.key)
          .send({ url: 'https://hooks.example.com/theirs', events: ['gate.failed'] })
          .expect(201)
      ).body;
      const { cookie, csrf } = await signIn(pro.key);
      await request(api.url).get(`/app/webhooks/${theirs.id}`).set('Cookie', cookie).expect(404);
      for (const action of ['test', 'enable', 'delete']) {
        await request(api.url).post(`/app/webhooks/${theirs.id}/${action}`).set('Cookie', cookie).type('form').send({ _csrf: csrf }).expect(404);
      }
      expect((await request(api.url).get('/app/webhooks').set('Cookie', cookie).expect(200)).text).not.toContain('hooks.example.com/theirs');
      // The form checks like POST /api/webhooks: no event is a 400 with the field named.
      const refused = await request(api.url)
        .post('/app/webhooks')
        .set('Cookie', cookie)
        .type('form')
        .send({ _csrf: csrf, url: 'https://hooks.example.com/x' })
        .expect(400);
      expect(refused.text).toContain('<strong>events</strong>');
      // And the SSRF guard's rules: a private address is a 400 shown on the form, which keeps what was typed.
      const declined = await request(api.url)
        .post('/app/webhooks')
        .set('Cookie', cookie)
        .type('form')
        .send({ _csrf: csrf, url: 'http://10.0.0.7/hook', events: 'gate.failed' })
        .expect(400);
      expect(declined.text).toContain('Webhooks are not sent to this URL');
      expect(declined.text).toContain('value="http://10.0.0.7/hook"');
      expect(declined.text).toMatch(/value="gate\.failed" checked/);
      expect(declined.text).not.toMatch(/value="domain\.drift" checked/);
      await request(api.url).get(`/api/webhooks/${theirs.id}`).set('x-api-key', other.key).expect(200);
    });
  });

  describe('in Chromium at 390 px', () => {
    let page: Page;
    const visited: string[] = [];
    const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const refusals: string[] = [];

    beforeAll(async () => {
      page = await browser.newPage();
      await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 1 });
      page.on('dialog', (dialog) => void dialog.accept());
      // The pages run under their real CSP: anything it refuses (an inline script or style, a foreign host) shows here.
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refusals.push(message.text());
      });
    });
    afterAll(async () => {
      await page?.close();
    });

    /** Every page the browser sees: no horizontal scrolling at 390 px, and no axe violation. */
    async function check(name: string): Promise<void> {
      visited.push(name);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect({ name, overflow }).toEqual({ name, overflow: 0 });
      expect({ name, refusals }).toEqual({ name, refusals: [] });
      // Evaluated through the DevTools protocol, which the page's CSP does not govern.
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> };
          }
        ).axe;
        const result = await axe.run({ exclude: [['iframe']] }, { iframes: false });
        return result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => JSON.stringify(n.target)).slice(0, 3) }));
      });
      expect({ name, violations }).toEqual({ name, violations: [] });
      if (SCREENSHOT_DIR) {
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) as `${string}.png`, fullPage: true });
        await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 1 });
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-wide.png`) as `${string}.png`, fullPage: true });
        await page.setViewport({ width: 390, height: 844, deviceScaleFactor: 1 });
      }
    }

    async function go(path: string): Promise<void> {
      await page.goto(`${api.url}${path}`, { waitUntil: 'networkidle0' });
    }

    async function submit(selector: string): Promise<void> {
      await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click(selector)]);
    }

    it('signs in with a key', async () => {
      await go('/app/previews');
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await check('sign-in');
      await page.type('#key', pro.key);
      await submit('form[action="/app/sign-in"] button[type=submit]');
      expect(new URL(page.url()).pathname).toBe('/app');
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Overview');
    });

    it("shows a markup that does not compile in the form again, with the compiler's message", async () => {
      await go('/app/previews/new');
      await page.type('#title', 'Broken JSX');
      await page.$eval('#markup', (el) => ((el as HTMLTextAreaElement).value = 'export default function Email() { return <div>; }'));
      await page.click('input[name=format][value=jsx]');
      await submit('form[action="/app/previews/new"] button[type=submit]');
      expect(new URL(page.url()).pathname).toBe('/app/previews/new');
      expect(await page.$eval('[role=alert]', (el) => el.textContent)).toMatch(/\(line 1, column \d+\)/);
      // What was typed is kept.
      expect(await page.$eval('#title', (el) => (el as HTMLInputElement).value)).toBe('Broken JSX');
      expect(await page.$eval('input[name=format][value=jsx]', (el) => (el as HTMLInputElement).checked)).toBe(true);
      await check('preview-new-error');
      await go('/app/previews/prv_000000000000000000000000');
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Not found');
      await check('not-found');
    });

    it('creates a preview with a title, finds it by searching, opens it and shares it', async () => {
      await go('/app/previews/new');
      await check('preview-new');
      await page.type('#title', 'Spring launch 2026');
      await page.$eval('#markup', (el, value) => ((el as HTMLTextAreaElement).value = value), EMAIL);
      await page.click('input[name=clients][value="gmail-web"]');
      await page.click('input[name=clients][value="outlook-windows-legacy"]');
      await submit('form[action="/app/previews/new"] button[type=submit]');
      expect(new URL(page.url()).pathname).toMatch(/^\/app\/previews\/prv_/);
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Spring launch 2026');
      expect(await page.$$eval('#scores-title + .card tbody tr', (rows) => rows.length)).toBe(2);
      const previewPath = new URL(page.url()).pathname;

      await go('/app/previews');
      await check('previews');
      // htmx swaps the results in place as one types (the page is not reloaded: the marker survives).
      await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
      await page.type('#q', 'spring LAUNCH');
      await page.waitForFunction(() => document.querySelectorAll('#preview-results tbody tr').length === 1 && /q=spring/.test(location.search), {
        timeout: 10_000,
      });
      expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
      // Without script the form is an ordinary GET: the same results.
      const plain = await request(api.url)
        .get('/app/previews?q=spring+LAUNCH')
        .set('Cookie', (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; '))
        .expect(200);
      expect(plain.text).toContain('Spring launch 2026');
      await check('previews-search');
      await submit('#preview-results tbody a');
      expect(new URL(page.url()).pathname).toBe(previewPath);
      await page.waitForSelector('[data-ready="true"]', { timeout: 10_000 });
      await page.select('#client-picker', 'outlook-windows-legacy');
      await page.waitForSelector('[data-client="outlook-windows-legacy"]', { timeout: 10_000 });
      await check('preview');

      await submit('form[action$="/share"] button');
      const shareUrl = await page.$eval('#share-url', (input) => (input as HTMLInputElement).value);
      expect(shareUrl).toMatch(/\/share\/shr_[0-9A-Za-z]{24}$/);
      await check('preview-shared');
      const shared = await request(api.url).get(new URL(shareUrl).pathname).expect(200);
      expect(shared.text).toContain('Spring launch 2026');
    });

    it('shows a <script> title as text', async () => {
      const created = await request(api.url).post('/api/preview').set('x-api-key', pro.key).send({ title: HOSTILE_TITLE, html: EMAIL }).expect(200);
      for (const path of ['/app/previews', `/app/previews/${created.body.id}`, '/app']) {
        await go(path);
        const shown = await page.evaluate(() => document.body.innerText);
        expect(shown).toContain('<script>window.__dashboardXss = 1</script>');
        expect(await page.evaluate(() => (window as unknown as { __dashboardXss?: number }).__dashboardXss)).toBeUndefined();
        expect(await page.$$eval('script:not([src]), img[src="x"]', (nodes) => nodes.length)).toBe(0);
      }
    });

    it('shows stored screenshots on the preview page', async () => {
      const created = await request(api.url)
        .post('/api/preview')
        .set('x-api-key', pro.key)
        .send({ title: 'With screenshots', html: EMAIL, clients: ['gmail-web'] })
        .expect(200);
      const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      await db.query('UPDATE previews SET screenshots = $2 WHERE id = $1', [
        created.body.id,
        JSON.stringify({ 'gmail-web-light': pixel, 'gmail-web-dark': pixel }),
      ]);
      await go(`/app/previews/${created.body.id}`);
      const alts = await page.$$eval('.shots img', (imgs) => imgs.map((img) => img.getAttribute('alt')));
      expect(alts).toEqual(['Gmail in light mode (screenshot)', 'Gmail in dark mode (screenshot)']);
    });

    it('shows the divergence over the screenshots on the preview page: score, region boxes and list, the slider from the keyboard', async () => {
      const created = await request(api.url)
        .post('/api/preview')
        .set('x-api-key', pro.key)
        .send({ title: 'With divergence', html: EMAIL, clients: ['gmail-web'] })
        .expect(200);
      const fixture = divergenceFixture();
      await db.query('UPDATE previews SET screenshots = $2, rendered_reports = $3 WHERE id = $1', [
        created.body.id,
        JSON.stringify(fixture.screenshots),
        JSON.stringify(fixture.renderedReports),
      ]);
      await go(`/app/previews/${created.body.id}`);
      expect(await page.$eval('.shot-pair h3', (h) => h.textContent)).toBe('Gmail divergence 41/100');
      expect(await page.$$eval('.regions-overlay .region text', (labels) => labels.map((t) => t.textContent))).toEqual(['1 Layout', '2 Colour']);
      expect(await page.$$eval('.region-cause', (causes) => causes.map((c) => c.textContent))).toEqual([
        'Cause: the two columns stack: display:flex is removed (display; gmail-web strips display:flex)',
      ]);
      // The slider is shown by the page's script (same origin, no inline code) and moves from the keyboard.
      await page.focus('#cmp-gmail-web-light');
      await page.keyboard.press('Home');
      expect(await page.$eval('#cmp-gmail-web-light', (input) => input.getAttribute('aria-valuetext'))).toBe('Reference');
      expect(await page.$eval('#cmp-gmail-web-light', (input) => input.closest('.compare-control')!.hasAttribute('hidden'))).toBe(false);
      await check('preview-divergence');
    });

    it('renders screenshots on request from the preview page (queued for worker-render; this suite runs none, so they are pending)', async () => {
      const created = await request(api.url)
        .post('/api/preview')
        .set('x-api-key', pro.key)
        .send({ title: 'Render me', html: EMAIL, clients: ['gmail-web'] })
        .expect(200);
      await go(`/app/previews/${created.body.id}`);
      await submit(`form[action="/app/previews/${created.body.id}/screenshots"] button`);
      expect(new URL(page.url()).searchParams.get('done')).toBe('screenshots-pending');
      expect(await page.$eval('.notice', (notice) => notice.textContent)).toContain('still rendering');
    });

    it("shows gate runs per ref with their scores over time and each run's failures", async () => {
      const gate = (threshold: number) =>
        request(api.url)
          .post('/api/gate')
          .set('x-api-key', pro.key)
          .send({ html: EMAIL, ref: 'spring-newsletter', threshold, clients: ['gmail-web', 'outlook-windows-legacy'] });
      expect((await gate(10)).status).toBe(200);
      const failing = await gate(100);
      expect(failing.status).toBe(200);
      expect(failing.body.passed).toBe(false);
      await go('/app/gate');
      await check('gate');
      await submit('a[href="/app/gate/ref?ref=spring-newsletter"]');
      expect(await page.$$eval('#ref-scores polyline', (lines) => lines.length)).toBe(1);
      expect(await page.$$eval('#ref-scores circle.dot-bad', (dots) => dots.length)).toBeGreaterThanOrEqual(1);
      await check('gate-ref');
      await go(`/app/gate/runs/${failing.body.runId}`);
      const failures = await page.$$eval('#failures-title + ul li', (items) => items.map((li) => li.textContent ?? ''));
      expect(failures.length).toBe(failing.body.failures.length);
      expect(failures[0]).toContain(failing.body.failures[0].check);
      await check('gate-run');
    });

    it("fixes a failed gate run's preview from the run page: the re-analysis, applied and skipped fixes, the diff and the fixed email", async () => {
      const clients = ['gmail-web', 'outlook-windows-legacy'];
      const failing = await request(api.url).post('/api/gate').set('x-api-key', pro.key).send({ html: FIXABLE, clients }).expect(200);
      expect(failing.body.passed).toBe(false);
      // The suggested fix follows the verdict (docs/gate.md): the run carries it once the follow-up job is done.
      expect(failing.body.suggestedFix).toEqual({ pending: true });
      const { fixable } = await waitFor(
        async () => {
          const run = await request(api.url).get(`/api/gate/runs/${failing.body.runId}`).set('x-api-key', pro.key).expect(200);
          return run.body.verdict.suggestedFix?.pending === true ? null : (run.body.verdict.suggestedFix as { fixable: number });
        },
        'the suggested fix of the failing run',
        20_000,
      );
      expect(fixable).toBeGreaterThanOrEqual(2);
      await go(`/app/gate/runs/${failing.body.runId}`);
      const suggestion = await page.$eval(`form[action="/app/previews/${failing.body.previewId}/fix"]`, (form) => form.textContent ?? '');
      expect(suggestion).toContain(`The safe fixes resolve ${fixable} findings of this email.`);
      await check('gate-run-fixable');

      await submit(`form[action="/app/previews/${failing.body.previewId}/fix"] button`);
      expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/app/previews/${failing.body.previewId}/fix/fix_[0-9A-Za-z]+$`));
      // The gate saved the analyzed email as a preview titled after the run.
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Fix: Gate run');
      expect(await page.$eval('main .meta', (meta) => meta.textContent)).toContain('tiers: safe');
      // Before and after, by analyzing the fixed email again.
      // The same email through POST /api/fix, for the figures the page must show.
      const viaApi = (await request(api.url).post('/api/fix').send({ html: FIXABLE, clients }).expect(200)).body;
      const tally = await page.$$eval('#reanalysis-title ~ table tbody tr', (rows) =>
        rows.map((row) =>
          Array.from(row.querySelectorAll('th, td'))
            .slice(0, 3)
            .map((cell) => (cell.textContent ?? '').trim()),
        ),
      );
      expect(tally).toEqual(
        (['score', 'errors', 'warnings'] as const).map((key) => [key[0].toUpperCase() + key.slice(1), String(viaApi.before[key]), String(viaApi.after[key])]),
      );
      expect(await page.$eval('#reanalysis-title ~ p', (p) => p.textContent)).toMatch(/^Resolved \d+ findings: layout-table-role 1/);
      const applied = await page.$$eval('#applied-title + .card tbody tr', (rows) => rows.map((row) => row.textContent ?? ''));
      expect(applied.some((row) => row.includes('layout-table-role') && row.includes('role="presentation" on a layout table'))).toBe(true);
      expect(applied.some((row) => row.includes('decorative-image-alt'))).toBe(true);
      const skipped = await page.$$eval('#skipped-title + .card tbody tr', (rows) => rows.map((row) => row.textContent ?? ''));
      expect(skipped.some((row) => row.includes('decorative-image-alt') && row.includes('content image'))).toBe(true);
      // The diff is text (escaped), its added and removed lines marked.
      const added = await page.$$eval('pre.diff ins.diff-add', (lines) => lines.map((line) => line.textContent ?? ''));
      const removed = await page.$$eval('pre.diff del.diff-del', (lines) => lines.map((line) => line.textContent ?? ''));
      expect(added).toContainEqual(expect.stringMatching(/^\+<body><table width="600" role="presentation">/));
      expect(removed).toContainEqual(expect.stringMatching(/^-<body><table width="600">/));
      expect(await page.$$eval('pre.diff table, pre.diff img', (nodes) => nodes.length)).toBe(0);
      const fixed = await page.$eval('#fixed-html', (area) => (area as HTMLTextAreaElement).value);
      expect(fixed).toContain('<table width="600" role="presentation">');
      expect(fixed).toContain('Hello {{ first_name }}, autumn is here.');
      expect(fixed).toContain(`<img src="${GIF}" width="600" height="300">`);
      await check('preview-fix');

      expect(viaApi.html).toBe(fixed);

      // From the preview page, with the layout tier too.
      await go(`/app/previews/${failing.body.previewId}`);
      await page.click('input[name=tier][value=layout]');
      await submit(`form[action="/app/previews/${failing.body.previewId}/fix"] button[type=submit]`);
      expect(await page.$eval('main .meta', (meta) => meta.textContent)).toContain('tiers: safe + layout');
      expect(await page.$$eval('#applied-title + .card tbody tr', (rows) => rows.length)).toBeGreaterThanOrEqual(applied.length);
    });

    it('registers a webhook (secret shown once), sends a test event and lists its delivery; shows, enables and deletes a disabled endpoint', async () => {
      const receipts: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
      const receiver = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += String(chunk)));
        req.on('end', () => {
          receipts.push({ headers: req.headers, body });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/mailproof-hook`;
      // The delivering worker (worker-dns), started for this test only: it also consumes dns-audit
      // jobs, and the domain test below needs its first audit left unrun.
      const dnsWorker = await startWorkerDns(config);
      try {
        await go('/app/webhooks');
        expect(await page.$$eval('input[name=events]:checked', (boxes) => boxes.map((b) => (b as HTMLInputElement).value))).toEqual([
          'domain.drift',
          'domain.status_changed',
          'gate.failed',
        ]);
        await page.type('#webhook-url', hookUrl);
        await page.click('input[name=events][value="gate.passed"]');
        await submit('form[action="/app/webhooks"] button[type=submit]');
        const secret = await page.$eval('#new-secret', (input) => (input as HTMLInputElement).value);
        expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
        expect(await page.$('button[data-copy-target="new-secret"]')).not.toBeNull();
        await check('webhooks-created');

        // Shown once: the list no longer carries it.
        await go('/app/webhooks');
        expect(await page.$('#new-secret')).toBeNull();
        expect(await page.content()).not.toContain(secret);
        const row = await page.$eval('tbody tr', (tr) => tr.textContent ?? '');
        expect(row).toContain(hookUrl);
        expect(row).toContain('domain.drift, domain.status_changed, gate.failed, gate.passed');
        expect(row).toContain('enabled');
        await check('webhooks');

        await submit(`tbody a[href^="/app/webhooks/"]`);
        const endpointPath = new URL(page.url()).pathname;
        expect(await page.$eval('#deliveries-title + p', (p) => p.textContent)).toBe('No deliveries yet.');
        await submit(`form[action="${endpointPath}/test"] button`);
        expect(new URL(page.url()).searchParams.get('done')).toBe('webhook-test-queued');
        expect(await page.$$eval('#deliveries-title + .card tbody tr', (rows) => rows.map((r) => r.textContent ?? ''))).toEqual([
          expect.stringContaining('webhook.test'),
        ]);

        // The worker delivers it, signed with the secret the page showed.
        await waitFor(() => receipts.length >= 1, 'the test event at the receiver', 20_000);
        const receipt = receipts[0];
        const verified = new Webhook(secret).verify(receipt.body, {
          'webhook-id': String(receipt.headers['webhook-id']),
          'webhook-timestamp': String(receipt.headers['webhook-timestamp']),
          'webhook-signature': String(receipt.headers['webhook-signature']),
        });
        expect(verified).toMatchObject({ type: 'webhook.test', data: { endpointId: endpointPath.split('/').pop() } });
        const delivered = await waitFor(
          async () => {
            await go(endpointPath);
            const cells = await page.$$eval('#deliveries-title + .card tbody tr:first-child td', (tds) =>
              tds.map((td) => (td as HTMLElement).innerText.trim().replace(/\s+/g, ' ')),
            );
            return cells[1]?.startsWith('delivered') ? cells : null;
          },
          'the delivery to show as delivered',
          20_000,
          250,
        );
        expect(delivered).toEqual([expect.stringMatching(/^webhook\.test \d{4}-\d\d-\d\d \d\d:\d\d UTC$/), 'delivered 1 attempt', 'HTTP 200']);
        await check('webhook');
      } finally {
        await dnsWorker.close();
        await new Promise((resolve) => receiver.close(resolve));
      }
      expect(receipts).toHaveLength(1);

      // Disabled (as the worker disables an endpoint that keeps failing): the reason, as text, and Enable instead of a test.
      const endpointPath = new URL(page.url()).pathname;
      const reason = '<b>HTTP 503</b> on 20 deliveries in a row';
      await db.query(`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $2, disabled_at = now() WHERE id = $1`, [
        endpointPath.split('/').pop(),
        reason,
      ]);
      await go(endpointPath);
      expect(await page.$eval('p.error', (p) => p.textContent)).toContain(reason);
      expect(await page.$(`form[action="${endpointPath}/test"]`)).toBeNull();
      await check('webhook-disabled');
      await go('/app/webhooks');
      expect(await page.$eval('tbody tr', (tr) => tr.textContent)).toContain(reason);
      await go(endpointPath);
      await submit(`form[action="${endpointPath}/enable"] button`);
      expect(new URL(page.url()).searchParams.get('done')).toBe('webhook-enabled');
      expect(await page.$('p.error')).toBeNull();
      expect(await page.$(`form[action="${endpointPath}/test"]`)).not.toBeNull();

      await submit(`form[action="${endpointPath}/delete"] button`);
      expect(new URL(page.url()).pathname).toBe('/app/webhooks');
      expect(await page.$eval('.notice', (notice) => notice.textContent)).toBe('The webhook endpoint was deleted.');
      expect(await page.$('tbody tr')).toBeNull();
      await go(endpointPath);
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('Not found');
    });

    it('adds a domain and shows its score history plot and drift timeline', async () => {
      await go('/app/domains');
      await page.type('#domain', 'news.dashboard-test.example');
      await submit('form[action="/app/domains"] button[type=submit]');
      const domainId = new URL(page.url()).pathname.split('/').pop()!;
      expect(await page.$eval('h1', (h) => h.textContent)).toBe('news.dashboard-test.example');
      // Audits come from the DNS worker (not running here): store a month of them as it would.
      await db.query(
        `INSERT INTO domain_audits (job_id, monitored_domain_id, account_id, domain, trigger, window_key, score, inconclusive, result, checked_at)
         SELECT 'dash-' || $1::text || '-' || d, $1::uuid, $2::uuid, 'news.dashboard-test.example', 'schedule', 'w' || d, 70 + (d % 25), false, '{}'::jsonb, now() - make_interval(days => d)
         FROM generate_series(1, 30) AS d`,
        [domainId, pro.accountId],
      );
      const [latest] = await db.query(`SELECT id FROM domain_audits WHERE monitored_domain_id = $1 ORDER BY checked_at DESC LIMIT 1`, [domainId]);
      await db.query(
        `INSERT INTO drift_events (monitored_domain_id, audit_id, kind, check_name, previous, current, message, detected_at)
         VALUES ($1, $2, 'dmarc_policy', 'dmarc', '"reject"', '"none"', 'DMARC policy weakened from reject to none', now() - interval '1 day')`,
        [domainId, latest.id],
      );
      await db.query(`UPDATE monitored_domains SET status = 'degraded', score = 70 WHERE id = $1`, [domainId]);
      await page.reload({ waitUntil: 'networkidle0' });
      const points = await page.$eval('#domain-scores polyline', (line) => line.getAttribute('points')!.trim().split(/\s+/).length);
      expect(points).toBe(30);
      expect(await page.$eval('.timeline', (list) => list.textContent)).toContain('DMARC policy weakened from reject to none');
      await check('domain');
      await go('/app/domains');
      await check('domains');
      await go('/app');
      expect(await page.$eval('#attention-title + ul', (list) => list.textContent)).toContain('news.dashboard-test.example');
      await check('overview');
    });

    it("creates a key shown once with a copy button, and revoking the session's key ends the session", async () => {
      await go('/app/keys');
      await page.type('#key-name', 'ci-pipeline');
      await submit('form[action="/app/keys"] button[type=submit]');
      const newKey = await page.$eval('#new-key', (input) => (input as HTMLInputElement).value);
      expect(newKey).toMatch(/^mp_live_/);
      expect(await page.$('button[data-copy-target="new-key"]')).not.toBeNull();
      await check('keys-created');
      await go('/app/keys');
      expect(await page.$('#new-key')).toBeNull();
      expect(await page.$$eval('.bar-chart', (charts) => charts.length)).toBeGreaterThanOrEqual(2);
      await check('keys');

      await submit(`form[action="/app/keys/${pro.keyId}/revoke"] button`);
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      await go('/app/keys');
      expect(new URL(page.url()).pathname).toBe('/app/sign-in');
      // The new key still works, for the API and for a new session.
      await request(api.url).get('/api/keys').set('x-api-key', newKey).expect(200);
      expect(visited).toEqual(
        expect.arrayContaining([
          'sign-in',
          'overview',
          'previews-search',
          'preview',
          'preview-new',
          'gate',
          'gate-ref',
          'gate-run',
          'domains',
          'domain',
          'keys',
          'webhooks',
          'webhook',
        ]),
      );
    });
  });
});
