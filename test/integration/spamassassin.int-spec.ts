import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@mailproof/config';
import { analyzeEmail, parseMessage } from '@mailproof/engine';
import { buildMimeMessage } from '../../apps/worker-preview/src/mime-message.builder';
import { PreviewChecksService } from '../../apps/worker-preview/src/preview-checks.service';
import { checkWithSpamd } from '../../apps/worker-preview/src/spamd.client';
import request from 'supertest';
import { startTestApi } from '../utils/api-server';
import { startAppProcess } from '../utils/app-process';
import { freePort } from '../utils/free-port';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';

/**
 * Debian's spamd for real, on a random loopback port, with its packaged rules only: `--local` turns off
 * every network test (DNS blocklists, URIBL, Razor, Pyzor), so nothing leaves the machine. CI installs
 * it (`apt-get install spamassassin spamc spamd`: Debian 12 ships spamd in its own package; .ci/run); a machine without it fails here instead of skipping.
 */
const SPAMD = process.env.SPAMD_PATH ?? '/usr/sbin/spamd';

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const SPAMMY = `<html><head><title>YOU HAVE WON $1,000,000 CASH!!! ACT NOW</title></head><body>
  <p>CONGRATULATIONS!!! You have been selected to receive a cash bonus of $1,000,000.00. Click below to claim your prize.
  100% free, risk-free, no credit check, no obligation. Cheap viagra and casino bonus. Act now, this offer expires today!</p>
  <p><a href="http://192.168.1.1/claim">CLICK HERE</a></p></body></html>`;

const CLEAN = `<!DOCTYPE html><html lang="en"><head><title>Your March update</title></head><body>
  <p>Hi Sam,</p>
  <p>Here is what changed in your workspace this month: the new reporting page is live, exports now include
  attachments, and the mobile app remembers your last project. Thank you for working with us.</p>
  <p>Acme Inc, 1600 Market Street, Suite 200, San Francisco, CA 94103.
  <a href="https://acme.example.com/unsubscribe">Unsubscribe</a></p></body></html>`;

describe('SpamAssassin through spamd (real, local rules only)', () => {
  let spamd: ChildProcess;
  let port: number;
  let directory: string;
  let log = '';

  beforeAll(async () => {
    // The dead-spamd case logs a warning by design; keep the test output clean.
    Logger.overrideLogger(false);
    if (spawnSync(SPAMD, ['--version'], { stdio: 'ignore' }).status !== 0) {
      throw new Error(`spamd is not installed at ${SPAMD}: run "apt-get install -y spamassassin spamc spamd" (CI's .ci/run does). This test does not skip.`);
    }
    directory = mkdtempSync(join(tmpdir(), 'mailproof-spamd-'));
    port = await freePort();
    spamd = spawn(
      SPAMD,
      [
        '--local',
        '--listen-ip=127.0.0.1',
        `--port=${port}`,
        '--max-children=1',
        '--min-children=1',
        '--nouser-config',
        '--syslog=stderr',
        `--pidfile=${join(directory, 'spamd.pid')}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    spamd.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    spamd.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const deadline = Date.now() + 45_000;
    while (!(await accepts(port))) {
      if (spamd.exitCode !== null || Date.now() > deadline) throw new Error(`spamd did not start on 127.0.0.1:${port}:\n${log.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);

  afterAll(async () => {
    if (spamd && spamd.exitCode === null) {
      const exited = new Promise((resolve) => spamd.once('exit', resolve));
      spamd.kill('SIGTERM');
      await exited;
    }
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const message = (html: string, id: string): Buffer => {
    const analysis = analyzeEmail(html);
    return buildMimeMessage({ html, text: analysis.plainText?.text ?? null, subject: analysis.inboxPreview?.subject ?? null, id, date: new Date() });
  };

  it('scores an obvious spam above the threshold, with the rules that fired and their descriptions', async () => {
    const result = await checkWithSpamd(message(SPAMMY, 'spammy1'), { host: '127.0.0.1', port, timeoutMs: 20_000 });
    expect(result.threshold).toBe(5);
    expect(result.isSpam).toBe(true);
    expect(result.score).toBeGreaterThanOrEqual(result.threshold);
    const names = result.rules.map((rule) => rule.name);
    expect(names).toEqual(expect.arrayContaining(['HTML_MESSAGE']));
    expect(names.some((name) => /DRUG|RISK_FREE|MONEY|DOLLARS|CASH|SUBJ_ALL_CAPS|ADVANCE_FEE/.test(name))).toBe(true);
    for (const rule of result.rules) {
      expect(rule.name).toMatch(/^[A-Z0-9_]+$/);
      expect(Number.isFinite(rule.score)).toBe(true);
    }
    // The scores of the listed rules add up to spamd's total (the table is complete).
    expect(result.rules.reduce((sum, rule) => sum + rule.score, 0)).toBeCloseTo(result.score, 0);
    expect(result.rules.filter((rule) => rule.description).length).toBeGreaterThan(0);
  });

  it('passes a plain newsletter, and the synthetic headers trigger no missing-header rules', async () => {
    const result = await checkWithSpamd(message(CLEAN, 'clean1'), { host: '127.0.0.1', port, timeoutMs: 20_000 });
    expect(result.isSpam).toBe(false);
    expect(result.score).toBeLessThan(result.threshold);
    const names = result.rules.map((rule) => rule.name);
    expect(names).not.toContain('MISSING_DATE');
    expect(names).not.toContain('MISSING_MID');
    expect(names).not.toContain('MISSING_HEADERS');
    // No network tests ran: --local keeps blocklist rules from firing or even being tried.
    expect(names.some((name) => /^(URIBL|RCVD_IN|DNSWL|RAZOR|PYZOR|DCC)_/.test(name))).toBe(false);
  });

  it("lets the preview worker add spamd's verdict to the spam report, and turn a dead spamd into a note", async () => {
    const html = SPAMMY;
    const analysis = analyzeEmail(html);
    const triggersBefore = structuredClone(analysis.spamReport?.triggers);
    expect(triggersBefore?.length).toBeGreaterThan(0);
    const working = new PreviewChecksService(
      loadConfig({ SPAMASSASSIN_HOST: `127.0.0.1:${port}`, SPAMASSASSIN_TIMEOUT_MS: '20000', IMAGE_WEIGHT_CHECK: 'off' }),
    );
    const checked = await working.complete('prv_int1', html, analysis);
    expect(checked.spamReport?.spamassassin).toEqual(expect.objectContaining({ isSpam: true, threshold: 5, rules: expect.any(Array) }));
    // The engine's own rules stay as they were; the level follows SpamAssassin's verdict, the engine's beside it.
    expect(checked.spamReport?.triggers).toEqual(triggersBefore);
    expect(checked.spamReport).toMatchObject({ level: 'high', levelSource: 'spamassassin', engineLevel: analysis.spamReport?.level });
    // The report says in words whose level it is: SpamAssassin's, with the engine's estimate named beside it.
    expect(checked.spamReport?.levelNote).toMatch(
      /^SpamAssassin's verdict: spamd scored the message [\d.]+ \(spam from 5\); the engine's own estimate, high risk/,
    );
    expect(analysis.spamReport?.levelNote).toMatch(/^Engine estimate, SpamAssassin not consulted/);
    await working.onApplicationShutdown();

    const deadPort = await freePort();
    const failing = new PreviewChecksService(
      loadConfig({ SPAMASSASSIN_HOST: `127.0.0.1:${deadPort}`, SPAMASSASSIN_TIMEOUT_MS: '2000', IMAGE_WEIGHT_CHECK: 'off' }),
    );
    const noted = await failing.complete('prv_int2', html, analysis);
    expect(noted.spamReport?.spamassassin).toBeNull();
    expect(noted.spamReport?.notes).toEqual([expect.stringMatching(/^SpamAssassin check failed: .*ECONNREFUSED/)]);
    expect(noted.spamReport).toMatchObject({ level: analysis.spamReport?.level, levelSource: 'engine', levelNote: analysis.spamReport?.levelNote });
    await failing.onApplicationShutdown();
  });

  it('judges a whole message (eml) as it was sent, not a message built around its HTML part', async () => {
    // The message lacks Date and Message-ID, which a built message always has: spamd's header rules see the original.
    const raw = `From: news@acme.example\r\nTo: sam@example.net\r\nSubject: Your March update\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${CLEAN}\r\n`;
    const parsed = await parseMessage(raw);
    const analysis = analyzeEmail(parsed.html.content);
    const checks = new PreviewChecksService(
      loadConfig({ SPAMASSASSIN_HOST: `127.0.0.1:${port}`, SPAMASSASSIN_TIMEOUT_MS: '20000', IMAGE_WEIGHT_CHECK: 'off' }),
    );
    const message = { parsed, raw, bulk: false, authentication: Promise.resolve({ audits: {}, dkim: [] }) };
    const checked = await checks.complete('prv_int_eml', parsed.html.content, analysis, message);
    const names = checked.spamReport?.spamassassin?.rules.map((rule) => rule.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['MISSING_DATE', 'MISSING_MID']));
    const built = await checks.complete('prv_int_html', parsed.html.content, analysis);
    expect(built.spamReport?.spamassassin?.rules.map((rule) => rule.name)).not.toContain('MISSING_DATE');
    // The message report comes along; with no audit of its From domain its authentication is undecided.
    expect(checked.messageReport?.authentication.status).toBe('inconclusive');
    expect(built.messageReport).toBeNull();
    await checks.onApplicationShutdown();
  }, 60_000);

  it('reaches a stored preview through the worker process: the analysis thread waits for the verdict the main thread fetched', async () => {
    // The built worker runs the analysis in a piscina thread; the spamd round trip happens on its main
    // thread in between, over a MessagePort, and the thread stores the completed report.
    const config = testConfig({ PREVIEW_BUDGET_MS: 30_000 });
    const queues = openQueues(config);
    const api = await startTestApi(config);
    const worker = startAppProcess('worker-preview', {
      QUEUE_PREFIX: config.queue.prefix,
      SPAMASSASSIN_HOST: `127.0.0.1:${port}`,
      SPAMASSASSIN_TIMEOUT_MS: '20000',
      IMAGE_WEIGHT_CHECK: 'off',
      MIGRATE_ON_START: 'false',
    });
    try {
      await waitFor(async () => (await queues.preview.getWorkers()).length >= 1, 'a worker-preview process to connect', 30_000);
      const response = await request(api.url)
        .post('/api/preview')
        .send({ html: SPAMMY, clients: ['gmail-web', 'outlook-web'] });
      expect(response.status).toBe(200);
      expect(response.body.spamReport.spamassassin).toEqual(expect.objectContaining({ isSpam: true, threshold: 5 }));
      expect(response.body.spamReport).toMatchObject({ level: 'high', levelSource: 'spamassassin' });
      expect(response.body.spamReport.triggers.length).toBeGreaterThan(0);
      expect(response.body.imageReport.notes).toEqual([]);
      // The engine's fields come first, the checked reports after them, in the one stored document.
      const keys = Object.keys(response.body);
      expect(keys[0]).toBe('id');
      expect(keys.indexOf('spamReport')).toBeGreaterThan(keys.indexOf('plainText'));
      expect(Object.keys(response.body.darkMode)).toEqual(['gmail-web', 'outlook-web']);
    } finally {
      await worker.stop();
      await api.close();
      await queues.closeAll();
    }
  }, 90_000);

  it('spamd off (SPAMASSASSIN_HOST unset): the spam report has no spamassassin field', async () => {
    const analysis = analyzeEmail(CLEAN);
    const off = new PreviewChecksService(loadConfig({ IMAGE_WEIGHT_CHECK: 'off' }));
    const checked = await off.complete('prv_int3', CLEAN, analysis);
    expect(checked.spamReport).not.toHaveProperty('spamassassin');
    await off.onApplicationShutdown();
  });
});
