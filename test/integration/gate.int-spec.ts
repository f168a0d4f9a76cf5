import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { gateSuggestFixJob, type GateSuggestFixJobResult } from '@mailproof/contracts';
import { GateRunRepository, WebhookRepository } from '@mailproof/persistence';
import type { AppProcess } from '../utils/app-process';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase, testRowCipher } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * The pre-send gate end to end: the API in-process, a real worker-preview process consuming the
 * preview, gate and link-check queues, PostgreSQL and Redis. Link resolution and URL import reach a
 * loopback server that only this test allow-lists (SSRF_ALLOWED_ADDRESSES, refused in production).
 */
const CLEAN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receipt</title></head>
<body style="margin:0"><table role="presentation" width="600" cellpadding="0" cellspacing="0"><tr>
<td style="color:#222222;background-color:#ffffff;font-family:Arial,sans-serif;font-size:16px">
<p style="margin:0">Thanks for your order.</p>
<a href="https://shop.example.org/orders/42" style="color:#0b57d0">See your order</a>
<img src="https://shop.example.org/logo.png" alt="Shop" width="120" height="40" style="display:block">
</td></tr></table></body></html>`;

/** The same email with display:flex and a placeholder link: errors in the Word engine, a link that goes nowhere. */
const WORSE = CLEAN.replace('<td style="', '<td style="display:flex;').replace('href="https://shop.example.org/orders/42"', 'href="#"');

/** WORSE with a layout table missing its role and a font stack without a generic family: findings the safe fixes resolve. */
const FIXABLE = WORSE.replace('<table role="presentation" ', '<table ').replace('font-family:Arial,sans-serif', "font-family:'Brand Sans'");

describe('POST /api/gate', () => {
  const config = testConfig({ GATE_BUDGET_MS: 15_000, GATE_LINKS_BUDGET_MS: 20_000 });
  const queues = openQueues(config);
  let api: RunningApi;
  let db: DataSource;
  let worker: AppProcess;
  let pro: string;
  let proAccountId: string;
  let free: string;
  let site: http.Server;
  let siteUrl = '';
  const siteHits: string[] = [];

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      siteHits.push(`${req.method} ${req.url}`);
      const path = req.url ?? '/';
      if (path.startsWith('/missing')) return void res.writeHead(404).end();
      if (path.startsWith('/broken')) return void res.writeHead(500).end();
      if (path.startsWith('/no-head') && req.method === 'HEAD') return void res.writeHead(405).end();
      if (path.startsWith('/slow')) return void setTimeout(() => res.writeHead(200).end(), 3_000);
      if (path.startsWith('/email')) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CLEAN);
      res.writeHead(200, { 'content-type': 'text/html' }).end('ok');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    db = await openDatabase(config);
    api = await startTestApi(config);
    worker = await startWorker();
    ({ key: pro, accountId: proAccountId } = await createTestAccount(db, 'pro'));
    free = (await createTestAccount(db, 'free')).key;
  }, 60_000);

  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
    await new Promise((resolve) => site.close(resolve));
  });

  /** Locks short enough that a killed worker's step comes back within seconds. */
  async function startWorker(): Promise<AppProcess> {
    return startWorkerPreview(config, queues, { SSRF_ALLOWED_ADDRESSES: '127.0.0.1', WORKER_LOCK_DURATION_MS: '4000', WORKER_STALLED_INTERVAL_MS: '1000' }, [
      'preview',
      'gate',
      'link-check',
    ]);
  }

  const gate = (body: Record<string, unknown>, key = pro) => request(api.url).post('/api/gate').set('Authorization', `Bearer ${key}`).send(body);

  type SettledVerdict = Record<string, unknown> & { suggestedFix: { fixable: number; request: { path: string; body: Record<string, unknown> } } };

  /** The run's verdict once its suggested fix is settled (a follow-up job after the verdict, docs/gate.md); the wait has a deadline. */
  const settledVerdict = (runId: string) =>
    waitFor(
      async () => {
        const run = await request(api.url).get(`/api/gate/runs/${runId}`).set('Authorization', `Bearer ${pro}`);
        expect(run.status).toBe(200);
        return run.body.verdict?.suggestedFix?.pending === true ? null : (run.body.verdict as SettledVerdict);
      },
      `the suggested fix of ${runId}`,
      20_000,
    );

  /**
   * What the run's follow-up job returned (it stays in Redis a while once completed): where its suggestion was computed.
   * The run is settled in PostgreSQL before the job finishes in Redis, so its return value is waited for.
   */
  const followUpResult = (runId: string) =>
    waitFor(
      async () => ((await queues.preview.getJob(gateSuggestFixJob(runId).jobId))?.returnvalue as GateSuggestFixJobResult | undefined) ?? null,
      `the follow-up of ${runId} to finish`,
      20_000,
    );

  describe('access and validation', () => {
    it('needs a key (401) on the Pro plan (403 plan_required)', async () => {
      const anonymous = await request(api.url).post('/api/gate').send({ html: CLEAN });
      expect(anonymous.status).toBe(401);
      const onFree = await gate({ html: CLEAN }, free);
      expect(onFree.status).toBe(403);
      expect(onFree.body.code).toBe('plan_required');
    });

    it.each<[string, Record<string, unknown>, number, string, string]>([
      ['neither html nor url', {}, 400, 'validation_failed', 'html'],
      ['both html and url', { html: CLEAN, url: 'https://example.org/' }, 400, 'validation_failed', 'url'],
      ['a ref with a space', { html: CLEAN, ref: 'welcome email' }, 400, 'validation_failed', 'ref'],
      ['a ref of 201 characters', { html: CLEAN, ref: 'r'.repeat(201) }, 400, 'validation_failed', 'ref'],
      ['threshold 101', { html: CLEAN, threshold: 101 }, 400, 'validation_failed', 'threshold'],
      ['threshold as a string', { html: CLEAN, threshold: '70' }, 400, 'validation_failed', 'threshold'],
      ['an unknown check', { html: CLEAN, checks: ['compatibility', 'spelling'] }, 400, 'validation_failed', 'checks'],
      ['an unknown updateBaseline', { html: CLEAN, updateBaseline: 'sometimes' }, 400, 'validation_failed', 'updateBaseline'],
      ['an unknown format', { html: CLEAN, format: 'pug' }, 400, 'validation_failed', 'format'],
      ['an unknown field', { html: CLEAN, resolve: true }, 400, 'validation_failed', 'resolve'],
      ['an ftp url', { url: 'ftp://example.org/email.html' }, 400, 'url_declined', 'url'],
      ['a url with credentials', { url: 'https://user:secret@example.org/' }, 400, 'url_declined', 'url'],
      ['html over 500 KB', { html: `<p>${'x'.repeat(512_001)}</p>` }, 413, 'payload_too_large', 'html'],
    ])('%s: answered with the documented status, code and field', async (_name, body, status, code, field) => {
      const res = await gate(body);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe(code);
      if (status === 400) expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('lists the valid client ids when a client id is unknown', async () => {
      const res = await gate({ html: CLEAN, clients: ['gmail-web', 'lotus-notes'] });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.errors)).toContain('outlook-windows-legacy');
    });
  });

  describe('verdicts', () => {
    it('passes a clean email with the verdict fields, the families that ran and a saved preview', async () => {
      const res = await gate({ html: CLEAN });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        passed: true,
        baseline: { ref: null, comparedTo: null },
        failures: [],
        // Regression needs a ref; the message check runs on every email and passes one that is not a message, saying so.
        checks: ['compatibility', 'content', 'message'],
        notes: [{ family: 'message', check: 'bulk-sender', reason: 'not a message: nothing to check' }],
        links: { resolved: false, checked: 0, unchecked: [] },
      });
      expect(typeof res.body.overallScore).toBe('number');
      expect(typeof res.body.worstClient).toBe('string');
      expect(res.body.runId).toMatch(/^gtr_/);
      expect(res.body.previewId).toMatch(/^prv_/);
      expect(res.body).not.toHaveProperty('suggestedFix');
      const preview = await request(api.url).get(`/api/preview/${res.body.previewId}`).set('Authorization', `Bearer ${pro}`);
      expect(preview.status).toBe(200);
    });

    it('fails with HTTP 200 and passed false, every failure in its documented shape', async () => {
      const res = await gate({ html: WORSE, threshold: 100 });
      expect(res.status).toBe(200);
      expect(res.body.passed).toBe(false);
      const failures: Array<Record<string, unknown>> = res.body.failures;
      expect(failures).toContainEqual({
        family: 'compatibility',
        check: 'threshold',
        clientId: 'outlook-windows-legacy',
        score: expect.any(Number),
        threshold: 100,
      });
      expect(failures).toContainEqual({ family: 'compatibility', check: 'client-errors', clientId: 'outlook-windows-legacy', errors: expect.any(Number) });
      expect(failures).toContainEqual(expect.objectContaining({ family: 'content', check: 'links', href: '#' }));
      expect(res.body.worstClient).toBe('outlook-windows-legacy');
    });

    it('suggests the fix of a failed verdict after answering: pending in the answer, then on the run the findings the safe fixes resolve and the POST /api/fix request that resolves them', async () => {
      const clients = ['outlook-windows-legacy', 'gmail-web'];
      const res = await gate({ html: FIXABLE, clients });
      expect(res.status).toBe(200);
      expect(res.body.passed).toBe(false);
      // The verdict does not wait for the fixes: it says the suggestion is coming.
      expect(res.body.suggestedFix).toEqual({ pending: true });
      const verdict = await settledVerdict(res.body.runId);
      expect(verdict.suggestedFix).toEqual({
        fixable: expect.any(Number),
        request: { method: 'POST', path: '/api/fix', body: { format: 'html', clients: ['gmail-web', 'outlook-windows-legacy'], tiers: ['safe'] } },
      });
      expect(verdict.suggestedFix.fixable).toBeGreaterThanOrEqual(2);
      // The analysis failed the verdict on its own: it went on to the suggestion from its own findings, and the follow-up took it.
      expect(await followUpResult(res.body.runId)).toEqual({ runId: res.body.runId, fixable: verdict.suggestedFix.fixable, computedBy: 'analysis' });
      // The rest of the run's verdict is the answer's.
      const { suggestedFix: _pending, ...answered } = res.body;
      const { suggestedFix: _settled, ...stored } = verdict;
      expect(stored).toEqual(answered);

      // The suggested request, with the email the gate judged, resolves exactly that many findings.
      const fixed = await request(api.url)
        .post(verdict.suggestedFix.request.path)
        .send({ ...verdict.suggestedFix.request.body, html: FIXABLE });
      expect(fixed.status).toBe(200);
      const resolved = Object.values(fixed.body.resolved as Record<string, number>).reduce((sum, count) => sum + count, 0);
      expect(resolved).toBe(verdict.suggestedFix.fixable);

      // The fixed email fails the gate still (display:flex, the placeholder link) but has nothing left to suggest.
      const again = await gate({ html: fixed.body.html, clients });
      expect(again.body.passed).toBe(false);
      expect(await settledVerdict(again.body.runId)).not.toHaveProperty('suggestedFix');
    });

    it("suggests the fix of a template from its compiled HTML (read back from the preview's stored result)", async () => {
      const mjml =
        '<mjml><mj-body><mj-section><mj-column><mj-text font-family="Brand Sans">Hello <a href="#">there</a></mj-text></mj-column></mj-section></mj-body></mjml>';
      const res = await gate({ html: mjml, format: 'mjml', clients: ['apple-mail-ios'] });
      expect(res.status).toBe(200);
      expect(res.body.failures).toContainEqual(expect.objectContaining({ check: 'links', href: '#' }));
      // The font stack without a generic family (a design finding of the compiled HTML).
      expect((await settledVerdict(res.body.runId)).suggestedFix).toEqual({
        fixable: 1,
        request: { method: 'POST', path: '/api/fix', body: { format: 'mjml', clients: ['apple-mail-ios'], tiers: ['safe'] } },
      });
    });

    it('suggests the same fix when only the verdict step finds the failure (a regression): the follow-up computes it', async () => {
      const ref = `emails/ledger-${Date.now()}`;
      const first = await gate({ html: CLEAN, ref, checks: ['regression'] });
      expect(first.body.passed).toBe(true);
      // Only the regression check runs: the analysis cannot tell the verdict fails, so it does not go on to the fixes.
      const regressed = await gate({ html: FIXABLE, ref, checks: ['regression'] });
      expect(regressed.body.passed).toBe(false);
      expect(regressed.body.failures.every((f: { family: string }) => f.family === 'regression')).toBe(true);
      expect(regressed.body.suggestedFix).toEqual({ pending: true });
      const computed = (await settledVerdict(regressed.body.runId)).suggestedFix;
      expect(await followUpResult(regressed.body.runId)).toMatchObject({ computedBy: 'follow-up', fixable: computed.fixable });
      // The same email failing on its own analysis: its suggestion comes from the analysis, and is the same.
      const failing = await gate({ html: FIXABLE });
      const handedOver = (await settledVerdict(failing.body.runId)).suggestedFix;
      expect(await followUpResult(failing.body.runId)).toMatchObject({ computedBy: 'analysis' });
      expect(handedOver).toEqual(computed);
      expect(computed.fixable).toBeGreaterThanOrEqual(2);
    });

    it('suggests nothing on a failed verdict the safe fixes cannot improve, and says so at once when no finding is theirs', async () => {
      // WORSE has no finding a safe fix targets (display:flex and a placeholder link are not theirs): nothing is pending.
      const res = await gate({ html: WORSE });
      expect(res.body.passed).toBe(false);
      expect(res.body).not.toHaveProperty('suggestedFix');
      expect(await settledVerdict(res.body.runId)).not.toHaveProperty('suggestedFix');
      const [run] = await db.query('SELECT suggested_fix, suggested_fix_pending FROM gate_runs WHERE id = $1', [res.body.runId]);
      expect(run).toEqual({ suggested_fix: null, suggested_fix_pending: false });
    });

    it('checks ["compatibility"] alone ignores content, and failOnError false lets client errors through', async () => {
      const compatibilityOnly = await gate({ html: WORSE, checks: ['compatibility'], threshold: 0 });
      expect(compatibilityOnly.body.checks).toEqual(['compatibility']);
      expect(compatibilityOnly.body.failures.every((f: { family: string }) => f.family === 'compatibility')).toBe(true);
      expect(compatibilityOnly.body.passed).toBe(false);
      const errorsAllowed = await gate({ html: WORSE, checks: ['compatibility'], threshold: 0, failOnError: false });
      expect(errorsAllowed.body).toMatchObject({ passed: true, failures: [] });
    });

    it('answers a template that does not compile with 422 compile_failed and its line', async () => {
      const res = await gate({ html: 'export default function E() {\n  const broken = ;\n  return <p />;\n}', format: 'jsx' });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('compile_failed');
      expect(res.body.line).toBe(2);
      expect(res.body.runId).toMatch(/^gtr_/);
    });
  });

  describe('webhook events (docs/webhooks.md)', () => {
    it('records one gate.failed or gate.passed delivery per subscribed endpoint with the verdict, and queues it', async () => {
      const webhooks = new WebhookRepository(db, testRowCipher(db, config));
      // Stored directly: this suite runs no worker-dns, so the deliveries stay queued; the webhooks suite sends them.
      const add = async (events: string[]) => {
        const outcome = await webhooks.addEndpoint(proAccountId, 'https://hooks.example.com/in', events, 'whsec_dGVzdA==', 10);
        if (outcome.status !== 'created') throw new Error('endpoint not created');
        return outcome.endpoint.id;
      };
      const onFailure = await add(['gate.failed']);
      const onPass = await add(['gate.passed', 'domain.drift']);
      try {
        const failed = await gate({ html: FIXABLE, threshold: 100 });
        const passed = await gate({ html: CLEAN });
        expect([failed.body.passed, passed.body.passed]).toEqual([false, true]);
        // gate.failed is recorded once the run's suggested fix is known, and carries it.
        const { suggestedFix } = await settledVerdict(failed.body.runId);
        expect(suggestedFix.fixable).toBeGreaterThanOrEqual(2);
        const stored: Array<{ id: string; endpoint_id: string; type: string; event_id: string; account_id: string; payload: string }> = await db.query(
          `SELECT d.id, d.endpoint_id, e.type, e.id AS event_id, e.account_id, e.payload FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
            WHERE d.endpoint_id = ANY($1) ORDER BY e.type`,
          [[onFailure, onPass]],
        );
        // Sealed at rest (the failures name the email's URLs: docs/privacy.md), opened as the delivering worker does.
        for (const row of stored) expect(row.payload).toMatch(/^mpe1:/);
        const rows = await Promise.all(
          stored.map(async (row) => ({ ...row, payload: await webhooks.openPayload({ id: row.event_id, accountId: row.account_id }, row.payload) })),
        );
        expect(rows.map((row) => [row.type, row.endpoint_id])).toEqual([
          ['gate.failed', onFailure],
          ['gate.passed', onPass],
        ]);
        expect(rows[0].payload).toMatchObject({
          type: 'gate.failed',
          data: { runId: failed.body.runId, passed: false, overallScore: failed.body.overallScore, failures: failed.body.failures, suggestedFix },
        });
        expect(rows[1].payload).toMatchObject({ type: 'gate.passed', data: { runId: passed.body.runId, previewId: passed.body.previewId, passed: true } });
        for (const row of rows) expect(await queues.webhook.getJob(`webhook.deliver-${row.id}`)).toBeDefined();
      } finally {
        await db.query('DELETE FROM webhook_endpoints WHERE id = ANY($1)', [[onFailure, onPass]]);
      }
    });
  });

  describe('baselines (docs/gate.md)', () => {
    const baselineOf = async (ref: string) => {
      const rows: Array<{ run_id: string; created_at: Date }> = await db.query('SELECT run_id, created_at FROM gate_baselines WHERE ref = $1', [ref]);
      return rows[0] ?? null;
    };

    it('follows every row of the table: none, on-pass, always, never, and runs without a ref', async () => {
      const ref = `welcome/${Date.now()}`;
      // No baseline: the regression check passes, nothing to compare to; a passing on-pass run stores it.
      const first = await gate({ html: CLEAN, ref });
      expect(first.body).toMatchObject({ passed: true, baseline: { ref, comparedTo: null }, checks: ['compatibility', 'content', 'regression', 'message'] });
      const stored = await baselineOf(ref);
      expect(stored?.run_id).toBe(first.body.runId);

      // A worse version fails against it (worse-than-baseline) and, on-pass, leaves it where it was.
      const worse = await gate({ html: WORSE, ref, threshold: 0, checks: ['regression'] });
      expect(worse.body.passed).toBe(false);
      expect(worse.body.baseline).toEqual({ ref, comparedTo: stored.created_at.toISOString() });
      expect(worse.body.failures).toContainEqual(
        expect.objectContaining({ family: 'regression', check: 'worse-than-baseline', clientId: 'outlook-windows-legacy', severity: 'error' }),
      );
      expect((await baselineOf(ref))?.run_id).toBe(first.body.runId);

      // never: read-only, whatever the verdict.
      const readOnly = await gate({ html: CLEAN, ref, updateBaseline: 'never' });
      expect(readOnly.body.passed).toBe(true);
      expect((await baselineOf(ref))?.run_id).toBe(first.body.runId);

      // always: this version becomes the baseline even though it failed.
      const forced = await gate({ html: WORSE, ref, threshold: 0, checks: ['regression'], updateBaseline: 'always' });
      expect(forced.body.passed).toBe(false);
      const moved = await baselineOf(ref);
      expect(moved?.run_id).toBe(forced.body.runId);

      // Compared with the new baseline, the worse version is no regression any more.
      const same = await gate({ html: WORSE, ref, threshold: 0, checks: ['regression'] });
      expect(same.body).toMatchObject({ passed: true, baseline: { ref, comparedTo: moved.created_at.toISOString() } });

      // Without a ref: no regression check, no baseline touched.
      const unnamed = await gate({ html: CLEAN, updateBaseline: 'always' });
      expect(unnamed.body.checks).not.toContain('regression');
      expect((await baselineOf(ref))?.run_id).toBe(same.body.runId);
    });

    it('runs on one ref at the same moment take turns: each compares with what the previous stored, no update is lost', async () => {
      const ref = `concurrent/${Date.now()}`;
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) => gate({ html: i % 2 ? WORSE : CLEAN, ref, threshold: 0, updateBaseline: 'always' })),
      );
      for (const res of responses) expect(res.status).toBe(200);
      const rows: Array<{ id: string; completed_at: Date }> = await db.query('SELECT id, completed_at FROM gate_runs WHERE ref = $1 ORDER BY completed_at', [
        ref,
      ]);
      const cipher = testRowCipher(db, config);
      const gateRuns = new GateRunRepository(db, new WebhookRepository(db, cipher), cipher);
      const runs = await Promise.all(rows.map(async (row) => ({ ...row, verdict: (await gateRuns.find(row.id))!.verdict! })));
      expect(runs).toHaveLength(6);
      // Serialized: the first compared with nothing, each later one with the baseline the one before stored.
      expect(runs[0].verdict.baseline.comparedTo).toBeNull();
      for (let i = 1; i < runs.length; i++) expect(runs[i].verdict.baseline.comparedTo).toBe(runs[i - 1].completed_at.toISOString());
      expect((await baselineOf(ref))?.run_id).toBe(runs[runs.length - 1].id);
    });

    it("lists the account's runs of a ref, newest first", async () => {
      const ref = `listed/${Date.now()}`;
      const a = await gate({ html: CLEAN, ref });
      const b = await gate({ html: WORSE, ref, threshold: 100 });
      const res = await request(api.url).get('/api/gate/runs').query({ ref }).set('Authorization', `Bearer ${pro}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(res.body.runs.map((run: { id: string }) => run.id)).toEqual([b.body.runId, a.body.runId]);
      expect(res.body.runs[0]).toMatchObject({ ref, status: 'completed', passed: false });
      const one = await request(api.url).get(`/api/gate/runs/${a.body.runId}`).set('Authorization', `Bearer ${pro}`);
      expect(one.body).toMatchObject({ id: a.body.runId, status: 'completed', verdict: { passed: true } });
      const otherAccount = (await createTestAccount(db, 'pro')).key;
      const hidden = await request(api.url).get(`/api/gate/runs/${a.body.runId}`).set('Authorization', `Bearer ${otherAccount}`);
      expect(hidden.status).toBe(404);
    });
  });

  describe('links and URL import', () => {
    it('resolves links: a 404 and a 500 fail link-unreachable, HEAD refused falls back to GET, duplicates are fetched once', async () => {
      siteHits.length = 0;
      const links = ['/ok', '/ok', '/no-head', '/missing', '/broken'].map((path) => `<a href="${siteUrl}${path}">x</a>`).join('');
      const res = await gate({ html: CLEAN.replace('</td>', `${links}</td>`), resolveLinks: true, checks: ['content'] });
      expect(res.status).toBe(200);
      expect(res.body.failures).toEqual(
        expect.arrayContaining([
          { family: 'content', check: 'link-unreachable', url: `${siteUrl}/missing`, status: 404 },
          { family: 'content', check: 'link-unreachable', url: `${siteUrl}/broken`, status: 500 },
        ]),
      );
      expect(res.body.failures.filter((f: { check: string }) => f.check === 'link-unreachable')).toHaveLength(2);
      expect(res.body.links.resolved).toBe(true);
      expect(siteHits.filter((hit) => hit === 'HEAD /ok')).toHaveLength(1);
      expect(siteHits).toEqual(expect.arrayContaining(['HEAD /no-head', 'GET /no-head']));
      // shop.example.org does not resolve here: unchecked (error), never a failure.
      expect(res.body.links.unchecked).toContainEqual({ url: 'https://shop.example.org/orders/42', reason: 'error' });
    });

    it('checks at most 25 distinct URLs and reports the rest as cap', async () => {
      const links = Array.from({ length: 30 }, (_, i) => `<a href="${siteUrl}/page-${i}">x</a>`).join('');
      const res = await gate({ html: CLEAN.replace('</td>', `${links}</td>`), resolveLinks: true, checks: ['content'] });
      expect(res.body.links.unchecked.filter((link: { reason: string }) => link.reason === 'cap').length).toBeGreaterThanOrEqual(5);
      expect(res.body.links.checked).toBeLessThanOrEqual(25);
    });

    it('never fetches a link when resolveLinks is false', async () => {
      siteHits.length = 0;
      const res = await gate({ html: CLEAN.replace('</td>', `<a href="${siteUrl}/missing">x</a></td>`) });
      expect(res.body.passed).toBe(true);
      expect(siteHits).toEqual([]);
    });

    it('imports the email from a url', async () => {
      const res = await gate({ url: `${siteUrl}/email` });
      expect(res.status).toBe(200);
      expect(res.body.passed).toBe(true);
      // The page it came from may carry a token like the email's own links: sealed at rest (docs/privacy.md).
      const [stored]: Array<{ url: string }> = await db.query(`SELECT request->>'url' AS url FROM gate_runs WHERE id = $1`, [res.body.runId]);
      expect(stored.url.startsWith('mpe1:')).toBe(true);
      expect(stored.url).not.toContain(siteUrl);
    });

    it('answers url_unreachable for a 404 and url_declined for a private address', async () => {
      const missing = await gate({ url: `${siteUrl}/missing` });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('url_unreachable');
      const privateAddress = await gate({ url: 'http://10.0.0.1/email' });
      expect(privateAddress.status).toBe(400);
      expect(privateAddress.body.code).toBe('url_declined');
    });
  });

  describe('a worker killed mid-chain', () => {
    it('loses nothing: the step is delivered again, the chain completes, one run is recorded', async () => {
      const ref = `killed/${Date.now()}`;
      const answer = gate({ html: CLEAN.replace('</td>', `<a href="${siteUrl}/slow">slow</a></td>`), ref, resolveLinks: true }).then((res) => res);
      // The links step waits on the slow server: kill its worker while it does.
      await waitFor(async () => (await queues['link-check'].getActiveCount()) === 1, 'the links step to be running', 20_000, 20);
      worker.child.kill('SIGKILL');
      await worker.exited;
      worker = await startWorker();
      const res = await answer;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ passed: true, links: { resolved: true, checked: 1, unchecked: [expect.objectContaining({ reason: 'error' })] } });
      const runs: Array<{ id: string; status: string }> = await db.query('SELECT id, status FROM gate_runs WHERE ref = $1', [ref]);
      expect(runs).toEqual([{ id: res.body.runId, status: 'completed' }]);
      const baselines: Array<{ run_id: string }> = await db.query('SELECT run_id FROM gate_baselines WHERE ref = $1', [ref]);
      expect(baselines).toEqual([{ run_id: res.body.runId }]);
    }, 60_000);
  });
});
