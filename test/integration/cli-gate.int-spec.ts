import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { startTestApi, type RunningApi } from '../utils/api-server';
import type { AppProcess } from '../utils/app-process';
import { createTestAccount, openDatabase } from '../utils/database';
import { freePort } from '../utils/free-port';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * `mailproof gate` as a built process (run `npm run build` first). Its client behavior (request body,
 * exit codes, --json, retries honoring Retry-After, unreachable servers) against a loopback server
 * that answers the gate contract (docs/gate.md, problem bodies as docs/errors.md); `--local` with no
 * server at all; and one run against the real API and worker.
 */
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'mailproof.js');
/** An email project written for these tests: emails importing local components, partials and layouts. */
const PROJECT = join(ROOT, 'test', 'fixtures', 'projects', 'acme-emails');

const CLEAN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receipt</title></head>
<body style="margin:0"><table role="presentation" width="600" cellpadding="0" cellspacing="0"><tr>
<td style="color:#222222;background-color:#ffffff;font-family:Arial,sans-serif;font-size:16px">
<p style="margin:0">Thanks for your order.</p>
<a href="https://shop.example.org/orders/42" style="color:#0b57d0">See your order</a>
<img src="https://shop.example.org/logo.png" alt="Shop" width="120" height="40" style="display:block">
</td></tr></table></body></html>`;

/** display:flex (an error in the Word engine), a placeholder link and an image without alt text. */
const BROKEN = CLEAN.replace('<td style="', '<td style="display:flex;')
  .replace('href="https://shop.example.org/orders/42"', 'href="#"')
  .replace(' alt="Shop"', '');

/** BROKEN with a layout table missing its role and a font stack without a generic family: two findings the safe fixes resolve. */
const FIXABLE = BROKEN.replace('<table role="presentation" ', '<table ').replace('font-family:Arial,sans-serif', "font-family:'Brand Sans'");

const MJML = '<mjml><mj-body><mj-section><mj-column><mj-text>Hello</mj-text></mj-column></mj-section></mj-body></mjml>';

/** The receipt as a whole message with List-Unsubscribe (bulk mail by that header). */
const MESSAGE = [
  'From: Shop <orders@shop.example.org>',
  'Subject: Your receipt',
  'Date: Fri, 27 Nov 2026 10:00:00 +0000',
  'Message-ID: <receipt-42@shop.example.org>',
  'List-Unsubscribe: <https://shop.example.org/unsubscribe>',
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset=utf-8',
  '',
  CLEAN.replace(/\n/g, '\r\n'),
].join('\r\n');

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without blocking this process: the fake server and the API answer from here. */
function mailproof(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

function expectNoStackTrace(output: string): void {
  expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A loopback server that answers POST /api/gate with the replies it is given, in turn, then `fallback`. */
class FakeGateServer {
  readonly requests: RecordedRequest[] = [];
  private replies: Reply[] = [];
  private fallback: Reply = { status: 200, body: PASSED };
  private server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += String(chunk)));
    req.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw);
      } catch {
        body = { unparsable: raw };
      }
      this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = this.replies.shift() ?? this.fallback;
      const problem = reply.status !== 200;
      res.writeHead(reply.status, { 'content-type': problem ? 'application/problem+json' : 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(replies: Reply[] = [], fallback: Reply = { status: 200, body: PASSED }): void {
    this.requests.length = 0;
    this.replies = [...replies];
    this.fallback = fallback;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const ALL_CHECKS = ['compatibility', 'content', 'regression', 'message'];

const PASSED = {
  passed: true,
  overallScore: 97,
  worstClient: 'outlook-windows-legacy',
  baseline: { ref: 'emails/welcome.html', comparedTo: '2026-11-24T10:12:03.120Z' },
  failures: [],
  checks: ALL_CHECKS,
  links: { resolved: false, checked: 0, unchecked: [] },
  runId: 'gtr_pass1',
  previewId: 'prv_pass1',
};

/** Every failure shape the gate answers: threshold, client-errors, links, size, alt-text, link-unreachable, worse-than-baseline. */
const FAILED = {
  passed: false,
  overallScore: 81,
  worstClient: 'outlook-windows-legacy',
  baseline: { ref: 'emails/promo.html', comparedTo: '2026-11-24T10:12:03.120Z' },
  failures: [
    { family: 'compatibility', check: 'threshold', clientId: 'outlook-windows-legacy', score: 60, threshold: 80 },
    { family: 'compatibility', check: 'client-errors', clientId: 'outlook-windows-legacy', errors: 2 },
    { family: 'content', check: 'links', href: '#', reason: 'placeholder' },
    { family: 'content', check: 'size', bytes: 120345, limit: 102400 },
    { family: 'content', check: 'alt-text', src: 'https://shop.example.org/hero.png' },
    { family: 'content', check: 'link-unreachable', url: 'https://shop.example.org/gone', status: 404 },
    {
      family: 'regression',
      check: 'worse-than-baseline',
      clientId: 'outlook-windows-legacy',
      property: 'display:flex',
      rule: 'css-display-flex',
      severity: 'error',
    },
  ],
  checks: ALL_CHECKS,
  links: {
    resolved: true,
    checked: 3,
    unchecked: [
      { url: 'https://a.example.org/', reason: 'cap' },
      { url: 'https://b.example.org/', reason: 'budget' },
      { url: 'https://c.example.org/', reason: 'budget' },
    ],
  },
  runId: 'gtr_fail1',
  previewId: 'prv_fail1',
};

const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) => ({
  type: `https://mailproof.dev/problems/${code}`,
  title: code,
  status,
  detail,
  code,
  ...extra,
});

describe('mailproof gate', () => {
  let dir: string;
  const fake = new FakeGateServer();
  let env: NodeJS.ProcessEnv;
  const gate = (args: string[], extraEnv: NodeJS.ProcessEnv = {}, stdin?: string) =>
    mailproof(['gate', ...args], { cwd: dir, env: { ...env, ...extraEnv }, stdin });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailproof-gate-cli-'));
    mkdirSync(join(dir, 'emails'));
    writeFileSync(join(dir, 'emails', 'welcome.html'), CLEAN);
    writeFileSync(join(dir, 'emails', 'promo.html'), BROKEN);
    writeFileSync(join(dir, 'emails', 'fixable.html'), FIXABLE);
    writeFileSync(join(dir, 'emails', 'spring sale!.html'), CLEAN);
    writeFileSync(join(dir, 'emails', 'news.mjml'), MJML);
    writeFileSync(join(dir, 'emails', 'receipt.eml'), MESSAGE);
    writeFileSync(join(dir, 'emails', 'broken.tsx'), 'export default function Email( {\n  return <p>unclosed\n}\n');
    writeFileSync(join(dir, 'notes.txt'), 'not an email');
    await fake.start();
    const { MAILPROOF_API_KEY: _key, MAILPROOF_API_URL: _url, ...rest } = process.env;
    // Waits between retries are capped at 0 s: the test checks which Retry-After was honored, not the clock.
    env = { ...rest, MAILPROOF_API_URL: fake.url, MAILPROOF_API_KEY: 'mp_live_cli_gate_test', MAILPROOF_RETRY_MAX_WAIT_SECONDS: '0' };
  });

  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => fake.reset());

  describe('against a server answering the gate contract', () => {
    it('sends each file once, in turn, with the key, its format and its path as ref; exit 0 when every verdict passed', async () => {
      const result = await gate(['emails/welcome.html', 'emails/news.mjml', 'emails/spring sale!.html']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(fake.requests).toHaveLength(3);
      for (const request of fake.requests) {
        expect(request.method).toBe('POST');
        expect(request.url).toBe('/api/gate');
        expect(request.headers.authorization).toBe('Bearer mp_live_cli_gate_test');
        expect(request.headers['content-type']).toMatch(/^application\/json/);
      }
      expect(fake.requests.map((request) => request.body)).toEqual([
        { html: CLEAN, format: 'html', ref: 'emails/welcome.html' },
        { html: MJML, format: 'mjml', ref: 'emails/news.mjml' },
        // Characters a ref cannot hold become '-'.
        { html: CLEAN, format: 'html', ref: 'emails/spring-sale-.html' },
      ]);
      expect(result.stdout).toContain('PASS  emails/welcome.html  score 97/100, worst client outlook-windows-legacy\n');
      expect(result.stdout).toContain('  baseline: ref emails/welcome.html, compared with the version stored 2026-11-24T10:12:03.120Z\n');
      expect(result.stdout).toContain('  run gtr_pass1, preview prv_pass1\n');
      expect(result.stdout).toMatch(/3 files: 3 passed, 0 failed, 0 errors\n$/);
    });

    it('puts every option into the request body; --api-url wins over MAILPROOF_API_URL', async () => {
      const result = await gate(
        [
          'emails/welcome.html',
          '--api-url',
          `${fake.url}/`,
          '--ref',
          'newsletters/2026-03:spring@acme',
          '--threshold',
          '85.5',
          '--checks',
          'regression, compatibility',
          '--clients',
          'outlook-windows-legacy,gmail-web',
          '--resolve-links',
          '--update-baseline',
          'always',
          '--no-fail-on-error',
          '--format',
          'maizzle',
        ],
        { MAILPROOF_API_URL: 'http://127.0.0.1:1' },
      );
      expect(result.code).toBe(0);
      expect(fake.requests.map((request) => request.body)).toEqual([
        {
          html: CLEAN,
          format: 'maizzle',
          ref: 'newsletters/2026-03:spring@acme',
          threshold: 85.5,
          checks: ['compatibility', 'regression'],
          clients: ['gmail-web', 'outlook-windows-legacy'],
          failOnError: false,
          updateBaseline: 'always',
          resolveLinks: true,
        },
      ]);

      fake.reset();
      expect((await gate(['emails/welcome.html', '--no-ref'])).code).toBe(0);
      expect(fake.requests[0].body).toEqual({ html: CLEAN, format: 'html' });
      fake.reset();
      expect((await gate(['-'], {}, MJML)).code).toBe(0);
      expect(fake.requests[0].body).toEqual({ html: MJML, format: 'mjml' });
    });

    it('prints each failure on one line in words, the unchecked links and the baseline; exit 1 when a verdict failed', async () => {
      fake.reset([
        { status: 200, body: PASSED },
        { status: 200, body: FAILED },
      ]);
      const result = await gate(['emails/welcome.html', 'emails/promo.html']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        [
          'FAIL  emails/promo.html  score 81/100, worst client outlook-windows-legacy (7 failures)',
          '  - [threshold] outlook-windows-legacy scores 60, below the threshold of 80',
          '  - [client-errors] outlook-windows-legacy has 2 errors',
          '  - [links] a link goes nowhere (placeholder): href="#"',
          '  - [size] the email is 120345 bytes, over the 102400 bytes at which Gmail clips it',
          '  - [alt-text] an image has no alt text: https://shop.example.org/hero.png',
          '  - [link-unreachable] https://shop.example.org/gone answered HTTP 404',
          '  - [worse-than-baseline] new error in outlook-windows-legacy: display:flex (css-display-flex), not in the baseline',
          '  links: 3 fetched, 3 not checked (1 cap, 2 budget; an unchecked link never fails the gate)',
          '  baseline: ref emails/promo.html, compared with the version stored 2026-11-24T10:12:03.120Z',
          '  run gtr_fail1, preview prv_fail1',
        ].join('\n'),
      );
      expect(result.stdout).toMatch(/2 files: 1 passed, 1 failed, 0 errors\n$/);
    });

    it("prints a failed verdict's suggested fix with the command that shows it", async () => {
      const suggestedFix = { fixable: 3, request: { method: 'POST', path: '/api/fix', body: { format: 'html', clients: ['gmail-web'], tiers: ['safe'] } } };
      fake.reset([{ status: 200, body: { ...FAILED, suggestedFix } }]);
      const result = await gate(['emails/promo.html']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        [
          '  - [worse-than-baseline] new error in outlook-windows-legacy: display:flex (css-display-flex), not in the baseline',
          '  fix: the safe fixes resolve 3 findings; `mailproof fix emails/promo.html` shows them (or POST /api/fix, suggestedFix.request)',
          '  links: 3 fetched',
        ].join('\n'),
      );
    });

    it('names the fix command when the server is still computing the suggested fix (pending)', async () => {
      fake.reset([{ status: 200, body: { ...FAILED, suggestedFix: { pending: true } } }]);
      const result = await gate(['emails/promo.html']);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('  fix: `mailproof fix emails/promo.html` shows what the safe fixes resolve\n  links: 3 fetched');
      expect(result.stdout).not.toContain('undefined');
    });

    it("sends an .eml file as format eml and --bulk as bulk: true; prints the message check's failure and notes", async () => {
      const notes = [
        { family: 'message', check: 'bulk-sender', requirement: 'spf-and-dkim', reason: 'could not be decided: the DNS lookups failed' },
        // Never printed: an HTML email's note on every run would only add noise to CI logs.
        { family: 'message', check: 'bulk-sender', reason: 'not a message: nothing to check' },
      ];
      const failure = {
        family: 'message',
        check: 'bulk-sender',
        requirement: 'one-click-unsubscribe',
        reason: 'List-Unsubscribe has no List-Unsubscribe-Post: List-Unsubscribe=One-Click.',
        fix: 'Add List-Unsubscribe-Post: List-Unsubscribe=One-Click.',
      };
      fake.reset([{ status: 200, body: { ...PASSED, passed: false, failures: [failure], notes } }]);
      const result = await gate(['emails/receipt.eml', '--bulk', '--no-ref']);
      expect(result.code).toBe(1);
      expect(fake.requests.map((request) => request.body)).toEqual([{ html: MESSAGE, format: 'eml', bulk: true }]);
      expect(result.stdout).toContain(
        [
          'FAIL  emails/receipt.eml  score 97/100, worst client outlook-windows-legacy (1 failure)',
          '  - [bulk-sender] one-click-unsubscribe not met: List-Unsubscribe has no List-Unsubscribe-Post: List-Unsubscribe=One-Click. (fix: Add List-Unsubscribe-Post: List-Unsubscribe=One-Click.)',
          '  note: [bulk-sender spf-and-dkim] could not be decided: the DNS lookups failed',
        ].join('\n'),
      );
      expect(result.stdout).not.toContain('not a message');
    });

    it('says when there was nothing to compare with, and when regression was skipped', async () => {
      fake.reset([
        { status: 200, body: { ...PASSED, baseline: { ref: 'emails/welcome.html', comparedTo: null } } },
        { status: 200, body: { ...PASSED, baseline: { ref: null, comparedTo: null }, checks: ['compatibility', 'content'] } },
      ]);
      const result = await gate(['emails/welcome.html', 'emails/promo.html']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('  baseline: ref emails/welcome.html has no stored baseline yet, nothing to compare with\n');
      expect(result.stdout).toContain('  baseline: regression not checked\n');
    });

    it('--json prints one document with an entry per file, the verdicts as the server sent them', async () => {
      fake.reset([
        { status: 200, body: PASSED },
        { status: 200, body: FAILED },
      ]);
      const result = await gate(['emails/welcome.html', 'emails/promo.html', 'emails/missing.html', '--json']);
      expect(result.code).toBe(2);
      const output = JSON.parse(result.stdout);
      expect(output).toEqual({
        files: [
          { file: 'emails/welcome.html', format: 'html', ref: 'emails/welcome.html', outcome: 'passed', verdict: PASSED, attempts: 1 },
          { file: 'emails/promo.html', format: 'html', ref: 'emails/promo.html', outcome: 'failed', verdict: FAILED, attempts: 1 },
          {
            file: 'emails/missing.html',
            format: null,
            ref: 'emails/missing.html',
            outcome: 'error',
            error: { kind: 'read', message: 'cannot read the file (no such file)' },
          },
        ],
        summary: { files: 3, passed: 1, failed: 1, errors: 1 },
        exitCode: 2,
      });
      // The unreadable file was never sent.
      expect(fake.requests).toHaveLength(2);
    });

    it('retries a 429 after the Retry-After it was given, then delivers the verdict', async () => {
      fake.reset([
        { status: 429, headers: { 'retry-after': '7' }, body: problem(429, 'rate_limited', 'Too many requests.') },
        { status: 200, body: FAILED },
      ]);
      const result = await gate(['emails/promo.html']);
      expect(result.code).toBe(1);
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1].body).toEqual(fake.requests[0].body);
      expect(result.stderr).toBe(
        'mailproof: emails/promo.html: attempt 1 of 3 failed (HTTP 429 rate_limited); retrying in 0 s (Retry-After: 7 s, capped at 0 s)\n',
      );
      expect(result.stdout).toContain('FAIL  emails/promo.html');
    });

    it('after a 503 that names the run the server started, reads that run instead of starting another', async () => {
      fake.reset([
        {
          status: 503,
          headers: { 'retry-after': '5' },
          body: { ...problem(503, 'service_unavailable', 'The gate run did not finish in time.'), runId: 'gtr_slow1' },
        },
        { status: 200, body: { id: 'gtr_slow1', status: 'running', failure: null } },
        { status: 200, body: { id: 'gtr_slow1', status: 'completed', verdict: FAILED } },
      ]);
      const result = await gate(['emails/promo.html']);
      expect(result.code).toBe(1);
      expect(fake.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        'POST /api/gate',
        'GET /api/gate/runs/gtr_slow1',
        'GET /api/gate/runs/gtr_slow1',
      ]);
      expect(result.stdout).toContain('FAIL  emails/promo.html');
    });

    it('retries 500 and 503 (with or without Retry-After) up to 3 attempts, then exits 2', async () => {
      fake.reset([
        { status: 500, body: problem(500, 'internal_error', 'Something went wrong.') },
        { status: 503, headers: { 'retry-after': '2' }, body: problem(503, 'service_unavailable', 'The gate did not finish in time.') },
      ]);
      const recovered = await gate(['emails/welcome.html']);
      expect(recovered.code).toBe(0);
      expect(fake.requests).toHaveLength(3);
      expect(recovered.stderr).toContain('attempt 1 of 3 failed (HTTP 500 internal_error); retrying in 0 s\n');
      expect(recovered.stderr).toContain('attempt 2 of 3 failed (HTTP 503 service_unavailable); retrying in 0 s (Retry-After: 2 s, capped at 0 s)\n');

      fake.reset([], { status: 503, headers: { 'retry-after': '1' }, body: problem(503, 'service_unavailable', 'The gate did not finish in time.') });
      const exhausted = await gate(['emails/welcome.html']);
      expect(exhausted.code).toBe(2);
      expect(fake.requests).toHaveLength(3);
      expect(exhausted.stdout).toContain('ERROR emails/welcome.html: HTTP 503 service_unavailable: The gate did not finish in time. (after 3 attempts)\n');

      fake.reset([], { status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } });
      const noRetries = await gate(['emails/welcome.html', '--retries', '0']);
      expect(noRetries.code).toBe(2);
      expect(fake.requests).toHaveLength(1);
      expect(noRetries.stdout).toContain('ERROR emails/welcome.html: HTTP 502: Bad Gateway\n');
    });

    it.each<[string, Reply, string]>([
      [
        '400 validation_failed',
        { status: 400, body: problem(400, 'validation_failed', 'The request is not valid.', { errors: [{ field: 'ref', message: 'too long' }] }) },
        'HTTP 400 validation_failed: The request is not valid. [ref: too long]',
      ],
      [
        '401',
        { status: 401, body: problem(401, 'unauthorized', 'A valid API key is required.') },
        'HTTP 401 unauthorized: A valid API key is required. (check MAILPROOF_API_KEY)',
      ],
      [
        '403 plan_required',
        { status: 403, body: problem(403, 'plan_required', 'The gate needs the Pro plan.') },
        'HTTP 403 plan_required: The gate needs the Pro plan. (the gate needs a key on the Pro plan)',
      ],
      ['413', { status: 413, body: problem(413, 'payload_too_large', 'html is over 500 KB.') }, 'HTTP 413 payload_too_large: html is over 500 KB.'],
      [
        '422 compile_failed',
        { status: 422, body: problem(422, 'compile_failed', 'Unexpected token', { line: 5, column: 3 }) },
        'HTTP 422 compile_failed: Unexpected token (line 5, column 3)',
      ],
    ])('a %s answer is not retried: exit 2 with the problem in words', async (_name, reply, message) => {
      fake.reset([reply]);
      const result = await gate(['emails/welcome.html']);
      expect(result.code).toBe(2);
      expect(fake.requests).toHaveLength(1);
      expect(result.stdout).toContain(`ERROR emails/welcome.html: ${message}\n`);
      const json = JSON.parse((fake.reset([reply]), await gate(['emails/welcome.html', '--json'])).stdout);
      expect(json.files[0]).toMatchObject({ outcome: 'error', error: { kind: 'http', status: reply.status, code: (reply.body as { code: string }).code } });
      expect(json.exitCode).toBe(2);
    });

    it('an unreachable server is exit 2 once the retries are spent', async () => {
      const port = await freePort();
      const result = await gate(['emails/welcome.html', '--api-url', `http://127.0.0.1:${port}`]);
      expect(result.code).toBe(2);
      expect(result.stdout).toContain(
        `ERROR emails/welcome.html: cannot reach the Mailproof server at http://127.0.0.1:${port} (ECONNREFUSED) (after 3 attempts)\n`,
      );
      expect(result.stderr).toContain('attempt 2 of 3 failed (ECONNREFUSED); retrying in 0 s\n');
      expectNoStackTrace(result.stdout + result.stderr);
    });

    it('an answer that is not a verdict is an error, not a pass', async () => {
      fake.reset([{ status: 200, body: { hello: 'world' } }]);
      const result = await gate(['emails/welcome.html']);
      expect(result.code).toBe(2);
      expect(result.stdout).toContain('ERROR emails/welcome.html: HTTP 200: the answer is not a gate verdict (is --api-url a Mailproof server?)');
    });

    it('needs a key (exit 2, nothing sent); an unreadable file is exit 2 while the other files are still gated', async () => {
      const noKey = await gate(['emails/welcome.html'], { MAILPROOF_API_KEY: '' });
      expect(noKey.code).toBe(2);
      expect(noKey.stderr).toBe(
        'mailproof: no API key: set MAILPROOF_API_KEY (or pass --api-key) to a key on the Pro plan; --local runs the checks without a server\n',
      );
      expect(fake.requests).toHaveLength(0);

      const withFlag = await gate(['emails/welcome.html', '--api-key', 'mp_live_from_flag'], { MAILPROOF_API_KEY: '' });
      expect(withFlag.code).toBe(0);
      expect(fake.requests[0].headers.authorization).toBe('Bearer mp_live_from_flag');

      fake.reset();
      const unreadable = await gate(['emails/nope.html', 'emails/welcome.html']);
      expect(unreadable.code).toBe(2);
      expect(unreadable.stdout).toContain('ERROR emails/nope.html: cannot read the file (no such file)\n');
      expect(unreadable.stdout).toContain('PASS  emails/welcome.html');
      expect(fake.requests).toHaveLength(1);
    });

    it.each<[string, string[], RegExp]>([
      ['--ref with two files', ['emails/welcome.html', 'emails/promo.html', '--ref', 'x'], /--ref names one email/],
      ['a ref the server cannot take', ['emails/welcome.html', '--ref', 'spring sale'], /--ref must be 1-200 characters/],
      ['--threshold over 100', ['emails/welcome.html', '--threshold', '101'], /--threshold must be a number from 0 to 100, not "101"/],
      ['an unknown check', ['emails/welcome.html', '--checks', 'compatibility,spam'], /unknown check\(s\): spam/],
      ['an unknown client', ['emails/welcome.html', '--clients', 'outlook'], /Unknown client id\(s\): outlook/],
      ['an unknown --update-baseline', ['emails/welcome.html', '--update-baseline', 'sometimes'], /Allowed choices are on-pass, always, never/],
      ['a file whose format cannot be told', ['notes.txt'], /cannot tell the format of notes.txt/],
      ['--local with a server-only option', ['emails/welcome.html', '--local', '--update-baseline', 'always'], /--update-baseline needs a server/],
      ['--local with --bulk', ['emails/receipt.eml', '--local', '--bulk'], /--bulk needs a server/],
      ['--local with the message check', ['emails/receipt.eml', '--local', '--checks', 'message'], /--checks message needs a server/],
      ['a URL that is not one', ['emails/welcome.html', '--api-url', 'localhost:3000'], /--api-url must be http or https/],
    ])('a wrong command line (%s) is exit 3 and sends nothing', async (_name, args, message) => {
      const result = await gate(args);
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
      expect(fake.requests).toHaveLength(0);
    });
  });

  describe('--local, with no server', () => {
    // Nothing listens there and there is no key: --local must need neither.
    const offline = async () => ({ MAILPROOF_API_URL: `http://127.0.0.1:${await freePort()}`, MAILPROOF_API_KEY: '' });

    it('passes a clean email (exit 0) and fails a broken one (exit 1) with the engine verdict', async () => {
      const clean = await gate(['emails/welcome.html', '--local'], await offline());
      expect(clean.stderr).toBe('');
      expect(clean.code).toBe(0);
      expect(clean.stdout).toMatch(/^PASS {2}emails\/welcome\.html {2}score \d+\/100, worst client [a-z-]+\n/);
      expect(clean.stdout).toContain('  baseline: none (--local checks compatibility and content only)\n');
      expect(clean.stdout).not.toContain('  run ');

      const broken = await gate(['emails/promo.html', '--local'], await offline());
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain('FAIL  emails/promo.html');
      expect(broken.stdout).toContain('  - [client-errors] outlook-windows-legacy has ');
      expect(broken.stdout).toContain('  - [links] a link goes nowhere (placeholder): href="#"\n');
      expect(broken.stdout).toContain('  - [alt-text] an image has no alt text: https://shop.example.org/logo.png\n');
    });

    it('--json gives the server verdict shape without baseline, links or ids; --checks and --no-fail-on-error apply', async () => {
      const result = await gate(['emails/welcome.html', 'emails/promo.html', '--local', '--json'], await offline());
      expect(result.code).toBe(1);
      const output = JSON.parse(result.stdout);
      expect(output.summary).toEqual({ files: 2, passed: 1, failed: 1, errors: 0 });
      expect(output.files[0]).toEqual({
        file: 'emails/welcome.html',
        format: 'html',
        ref: null,
        outcome: 'passed',
        verdict: {
          passed: true,
          overallScore: expect.any(Number),
          worstClient: expect.any(String),
          baseline: { ref: null, comparedTo: null },
          failures: [],
          notes: [],
          checks: ['compatibility', 'content'],
          links: { resolved: false, checked: 0, unchecked: [] },
          runId: null,
          previewId: null,
        },
      });
      const failures = output.files[1].verdict.failures;
      expect(failures).toContainEqual({ family: 'compatibility', check: 'client-errors', clientId: 'outlook-windows-legacy', errors: expect.any(Number) });
      expect(failures).toContainEqual({ family: 'content', check: 'links', href: '#', reason: 'placeholder' });
      expect(failures).toContainEqual({ family: 'content', check: 'alt-text', src: 'https://shop.example.org/logo.png' });

      // The Emailens CI action's verdict: compatibility only; client errors do not block without failOnError.
      const lenient = await gate(
        ['emails/promo.html', '--local', '--checks', 'compatibility', '--no-fail-on-error', '--threshold', '0', '--json'],
        await offline(),
      );
      expect(lenient.code).toBe(0);
      expect(JSON.parse(lenient.stdout).files[0].verdict).toMatchObject({ passed: true, checks: ['compatibility'], failures: [] });
    });

    it('adds suggestedFix to a failed verdict when the safe fixes resolve findings, as the server does', async () => {
      const result = await gate(['emails/fixable.html', 'emails/promo.html', '--local', '--json'], await offline());
      expect(result.code).toBe(1);
      const [fixable, promo] = JSON.parse(result.stdout).files;
      expect(fixable.verdict.passed).toBe(false);
      expect(fixable.verdict.suggestedFix).toEqual({
        fixable: 2,
        request: { method: 'POST', path: '/api/fix', body: { format: 'html', clients: expect.arrayContaining(['gmail-web']), tiers: ['safe'] } },
      });
      expect(fixable.verdict.suggestedFix.request.body.clients).toHaveLength(21);
      // A failed verdict the safe fixes cannot improve suggests nothing.
      expect(promo.verdict.passed).toBe(false);
      expect(promo.verdict).not.toHaveProperty('suggestedFix');

      const text = await gate(['emails/fixable.html', '--local', '--clients', 'outlook-windows-legacy'], await offline());
      expect(text.stdout).toContain('  fix: the safe fixes resolve 2 findings; `mailproof fix emails/fixable.html` shows them');
    });

    it("sends an email's local imports from its project folder as files, and --mjml-validation", async () => {
      const result = await mailproof(['gate', 'emails/welcome.tsx', 'emails/newsletter.mjml', '--no-ref', '--mjml-validation', 'strict'], {
        cwd: PROJECT,
        env,
      });
      expect(result.code).toBe(0);
      const [jsx, mjml] = fake.requests.map((request) => request.body as { files?: Record<string, string>; mjmlValidation?: string });
      expect(Object.keys(jsx.files ?? {}).sort()).toEqual(['../components/Banner.tsx', '../components/brand.js', '../tailwind.config.js']);
      expect(jsx.files!['../components/brand.js']).toBe(readFileSync(join(PROJECT, 'components', 'brand.js'), 'utf8'));
      expect(jsx.mjmlValidation).toBe('strict');
      expect(mjml.files).toEqual({ '../partials/header.mjml': readFileSync(join(PROJECT, 'partials', 'header.mjml'), 'utf8') });
    });

    it('never reads an import from outside the project folder', async () => {
      const outside = mkdtempSync(join(tmpdir(), 'mailproof-gate-outside-'));
      try {
        mkdirSync(join(outside, 'project', 'emails'), { recursive: true });
        writeFileSync(join(outside, 'project', 'package.json'), '{}');
        writeFileSync(join(outside, 'secret.tsx'), 'export const secret = "do not send";');
        writeFileSync(join(outside, 'project', 'emails', 'e.tsx'), "import { secret } from '../../secret';\nexport default () => <p>{secret}</p>;\n");
        const result = await mailproof(['gate', 'emails/e.tsx', '--no-ref'], { cwd: join(outside, 'project'), env });
        expect(result.code).toBe(0);
        expect(fake.requests[0].body).not.toHaveProperty('files');
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    });

    it('an email that does not compile is exit 2 with the compiler position', async () => {
      const result = await gate(['emails/broken.tsx', '--local', '--json'], await offline());
      expect(result.code).toBe(2);
      const entry = JSON.parse(result.stdout).files[0];
      expect(entry).toMatchObject({ file: 'emails/broken.tsx', format: 'jsx', outcome: 'error', error: { kind: 'compile', line: expect.any(Number) } });
      expect(entry.error.message).toMatch(/^cannot compile jsx at line \d+/);
    });
  });

  describe('against the Mailproof API and worker', () => {
    const config = testConfig({ GATE_BUDGET_MS: 15_000 });
    const queues = openQueues(config);
    let api: RunningApi;
    let db: DataSource;
    let worker: AppProcess;
    let pro: string;
    let free: string;

    beforeAll(async () => {
      db = await openDatabase(config);
      api = await startTestApi(config);
      worker = await startWorkerPreview(config, queues, {}, ['preview', 'gate']);
      pro = (await createTestAccount(db, 'pro')).key;
      free = (await createTestAccount(db, 'free')).key;
    }, 60_000);

    afterAll(async () => {
      await worker?.stop('SIGKILL');
      await api?.close();
      await queues.closeAll();
      await db?.destroy();
    });

    it('passes, stores the baseline, fails the worse version against it, and refuses a Free key', async () => {
      const ref = `cli-gate/${Date.now()}`;
      const real = (args: string[], key = pro) => gate(args, { MAILPROOF_API_URL: api.url, MAILPROOF_API_KEY: key });

      const first = await real(['emails/welcome.html', '--ref', ref, '--json']);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const passed = JSON.parse(first.stdout).files[0];
      expect(passed).toMatchObject({ outcome: 'passed', ref, verdict: { passed: true, baseline: { ref, comparedTo: null }, failures: [] } });
      expect(passed.verdict.runId).toEqual(expect.any(String));
      expect(passed.verdict.previewId).toEqual(expect.any(String));

      const second = await real(['emails/promo.html', '--ref', ref]);
      expect(second.code).toBe(1);
      expect(second.stdout).toContain('FAIL  emails/promo.html');
      expect(second.stdout).toContain('  - [links] a link goes nowhere (placeholder): href="#"\n');
      expect(second.stdout).toMatch(/ {2}- \[worse-than-baseline\] new error in outlook-windows-legacy: /);
      expect(second.stdout).toMatch(new RegExp(`  baseline: ref ${ref.replace(/[/]/g, '\\/')}, compared with the version stored \\d{4}-\\d\\d-\\d\\dT`));
      expect(second.stdout).toMatch(/ {2}run \S+, preview \S+\n/);

      // A React Email template with local components and a Tailwind config, compiled by the worker from files.
      const withImports = await mailproof(
        ['gate', 'emails/welcome.tsx', '--no-ref', '--json', '--checks', 'compatibility', '--threshold', '0', '--no-fail-on-error'],
        {
          cwd: PROJECT,
          env: { ...env, MAILPROOF_API_URL: api.url, MAILPROOF_API_KEY: pro },
        },
      );
      expect(withImports.stderr).toBe('');
      expect(JSON.parse(withImports.stdout).files[0]).toMatchObject({ outcome: 'passed', format: 'jsx' });
      const missing = await mailproof(['gate', 'emails/missing-import.tsx', '--no-ref', '--json'], {
        cwd: PROJECT,
        env: { ...env, MAILPROOF_API_URL: api.url, MAILPROOF_API_KEY: pro },
      });
      expect(missing.code).toBe(2);
      expect(JSON.parse(missing.stdout).files[0].error.message).toMatch(
        /^HTTP 422 compile_failed: Import of "\.\.\/components\/Footer" is not among the files.* \(line 2, column 24\)$/,
      );

      const onFree = await real(['emails/welcome.html', '--no-ref'], free);
      expect(onFree.code).toBe(2);
      expect(onFree.stdout).toContain('ERROR emails/welcome.html: HTTP 403 plan_required');
    });
  });
});
