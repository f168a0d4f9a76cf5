import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The built `mailproof fix` as a plain Node process (jsx compiles in isolated-vm, which cannot load
// inside jest's process), over emails this file writes to a folder of its own.
const ROOT = join(__dirname, '..', '..');
// Unreachable services: fixing, like analyzing, must never need them.
const OFFLINE_ENV = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', REDIS_URL: 'redis://127.0.0.1:9' };

/**
 * A layout table without a role, a tracking pixel and a content image without alt, a 3-digit hex color and
 * a font stack without a generic family; merge tags of four ESPs and an Outlook conditional comment that
 * must come back byte for byte.
 */
const NEEDS_FIXES = [
  '<!doctype html>',
  '<html>',
  '<head>',
  '<style>.title { color: #abc; font-family: "Brand Sans"; }</style>',
  '</head>',
  '<body>',
  '<!--[if mso]><table><tr><td>Outlook only</td></tr></table><![endif]-->',
  '<table width="600" cellpadding="0" cellspacing="0">',
  '  <tr><td class="title">Hello {{ first_name }}, *|FNAME|* %%Member_Name%% {% if vip %}VIP{% endif %}</td></tr>',
  '  <tr><td><a href="https://example.com/offer">See the offer</a></td></tr>',
  '</table>',
  '<img src="https://example.com/open.gif" width="1" height="1">',
  '<img src="https://example.com/hero.png" width="600" height="300">',
  '</body>',
  '</html>',
  '',
].join('\n');

const JSX_EMAIL = [
  "import { Html, Body, Text } from '@react-email/components';",
  '',
  'export default function Welcome() {',
  '  return (',
  '    <Html>',
  '      <Body>',
  '        <Text>Welcome aboard.</Text>',
  '      </Body>',
  '    </Html>',
  '  );',
  '}',
  '',
].join('\n');

let dir: string;

function mailproof(args: string[], stdin?: string) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'mailproof.js'), ...args], {
    cwd: dir,
    env: OFFLINE_ENV,
    encoding: 'utf8',
    input: stdin,
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function writeEmail(name: string, content: string): string {
  writeFileSync(join(dir, name), content);
  return name;
}

function read(name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}

function expectNoStackTrace(output: string): void {
  expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(output).not.toContain('node_modules');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mailproof-cli-fix-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('mailproof fix', () => {
  it('prints the diff under the file name and a summary, and leaves the file alone', () => {
    const file = writeEmail('print.html', NEEDS_FIXES);
    const result = mailproof(['fix', file]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^--- print\.html\tsubmitted$/m);
    expect(result.stdout).toMatch(/^\+\+\+ print\.html\tfixed$/m);
    expect(result.stdout).toMatch(/^-<table width="600" cellpadding="0" cellspacing="0">$/m);
    expect(result.stdout).toMatch(/^\+<table width="600" cellpadding="0" cellspacing="0" role="presentation">$/m);
    expect(result.stdout).toMatch(/^\+<img src="https:\/\/example\.com\/open\.gif" width="1" height="1" alt="">$/m);
    // The content image is left alone: only its author knows its words.
    expect(result.stdout).toMatch(/^ <img src="https:\/\/example\.com\/hero\.png" width="600" height="300">$/m);
    expect(result.stdout).toContain('print.html (html, from the file name), tiers: safe');
    expect(result.stdout).toMatch(/^ {2}layout-table-role\s+1x\s+line 8: role="presentation" on a layout table$/m);
    expect(result.stdout).toMatch(/^ {2}decorative-image-alt\s+1x\s+line 12: /m);
    expect(result.stdout).toMatch(/^Skipped \d+:$/m);
    expect(result.stdout).toMatch(/^ {2}line 13 {2}decorative-image-alt: .*content image/m);
    expect(result.stdout).toMatch(/^Before: score \d+\/100, \d+ errors?, \d+ warnings?$/m);
    expect(result.stdout).toMatch(/^After: {2}score \d+\/100, \d+ errors?, \d+ warnings?$/m);
    expect(result.stdout).toMatch(/^Resolved \d+ findings?: .*layout-table-role 1/m);
    expect(result.stdout).toContain('Nothing written: `mailproof fix print.html --write` patches the file.');
    expect(read(file)).toBe(NEEDS_FIXES);
  });

  it('--write patches the file in place, keeping every unfixed byte, and a second run applies nothing', () => {
    const file = writeEmail('write.html', NEEDS_FIXES);
    const json = JSON.parse(mailproof(['fix', file, '--json']).stdout) as { html: string };
    const first = mailproof(['fix', file, '--write']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Wrote write.html.');
    // --write prints the summary, not the diff.
    expect(first.stdout).not.toContain('+++ ');
    const written = read(file);
    expect(written).toBe(json.html);
    expect(written).not.toBe(NEEDS_FIXES);
    expect(written).toContain('<table width="600" cellpadding="0" cellspacing="0" role="presentation">');
    for (const kept of [
      'Hello {{ first_name }}, *|FNAME|* %%Member_Name%% {% if vip %}VIP{% endif %}',
      '<!--[if mso]><table><tr><td>Outlook only</td></tr></table><![endif]-->',
      '<img src="https://example.com/hero.png" width="600" height="300">',
      '  <tr><td><a href="https://example.com/offer">See the offer</a></td></tr>',
    ]) {
      expect(written).toContain(kept);
    }

    const second = mailproof(['fix', file, '--write']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Applied: none');
    expect(second.stdout).toContain('Nothing to fix: the file is left as it is.');
    expect(read(file)).toBe(written);
    const again = JSON.parse(mailproof(['fix', file, '--json']).stdout) as { applied: unknown[]; diff: string; html: string };
    expect(again.applied).toEqual([]);
    expect(again.diff).toBe('');
    expect(again.html).toBe(written);
  });

  it('keeps CRLF line endings when it writes', () => {
    const crlf = NEEDS_FIXES.replace(/\n/g, '\r\n');
    const file = writeEmail('crlf.html', crlf);
    expect(mailproof(['fix', file, '--write']).code).toBe(0);
    const written = read(file);
    expect(written).not.toBe(crlf);
    expect(written).toContain('<table width="600" cellpadding="0" cellspacing="0" role="presentation">\r\n');
    expect(written).toContain('Hello {{ first_name }}, *|FNAME|* %%Member_Name%% {% if vip %}VIP{% endif %}</td></tr>\r\n');
  });

  it('--json prints the input, the tiers and the answer POST /api/fix gives', () => {
    const file = writeEmail('json.html', NEEDS_FIXES);
    const result = mailproof(['fix', file, '--json', '--clients', 'outlook-windows-legacy,apple-mail-ios']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.input).toEqual({ file: 'json.html', format: 'html', detectedBy: 'extension', compileWarnings: [] });
    expect(output).toMatchObject({ tiers: ['safe'], format: 'html', patched: 'source', written: false, introduced: [] });
    expect(output.note).toBeUndefined();
    expect(output.applied).toContainEqual({
      id: 'layout-table-role@8',
      rule: 'layout-table-role',
      tier: 'safe',
      clients: ['outlook-windows-legacy', 'apple-mail-ios'],
      line: 8,
      description: expect.any(String),
    });
    expect(output.skipped).toContainEqual({ rule: 'decorative-image-alt', line: 13, reason: expect.stringContaining('content image') });
    expect(output.before).toEqual({ score: expect.any(Number), errors: expect.any(Number), warnings: expect.any(Number) });
    expect(output.after).toEqual({ score: expect.any(Number), errors: expect.any(Number), warnings: expect.any(Number) });
    expect(output.resolved['layout-table-role']).toBe(1);
    expect(output.diff).toContain('+<table width="600" cellpadding="0" cellspacing="0" role="presentation">');
    expect(output.html).toContain('role="presentation"');
  });

  it('--tier layout runs the safe tier too', () => {
    const file = writeEmail('layout.html', NEEDS_FIXES);
    const output = JSON.parse(mailproof(['fix', file, '--tier', 'layout', '--json']).stdout);
    expect(output.tiers).toEqual(['safe', 'layout']);
    expect(output.applied.map((fix: { rule: string }) => fix.rule)).toContain('layout-table-role');
  });

  it('reads stdin without --write and fixes it the same way', () => {
    const result = mailproof(['fix', '-', '--json'], NEEDS_FIXES);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.input).toMatchObject({ file: '-', format: 'html', detectedBy: 'content' });
    expect(output.html).toContain('role="presentation"');
  });

  it('fixes a jsx template in its compiled HTML, says so, and refuses --write before compiling', () => {
    const file = writeEmail('welcome.tsx', JSX_EMAIL);
    const json = mailproof(['fix', file, '--json']);
    expect(json.code).toBe(0);
    const output = JSON.parse(json.stdout);
    expect(output).toMatchObject({
      input: { format: 'jsx' },
      format: 'jsx',
      patched: 'compiled-html',
      written: false,
      note: expect.stringContaining('compiled HTML'),
    });
    expect(output.html).toMatch(/^<!DOCTYPE html/i);

    const text = mailproof(['fix', file]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('The fixes are made in the compiled HTML of this jsx template, not in the file.');
    expect(text.stdout).not.toContain('Nothing written');

    const refused = mailproof(['fix', file, '--write']);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^mailproof: welcome\.tsx: --write cannot patch a jsx template: its fixes are made in the compiled HTML/);
    expect(read(file)).toBe(JSX_EMAIL);
  });

  it('fixes a whole message (.eml) in its decoded HTML part, says so, and refuses --write', () => {
    const message = [
      'From: Shop <orders@shop.example.org>',
      'Subject: Your receipt',
      'Date: Fri, 27 Nov 2026 10:00:00 +0000',
      'Message-ID: <receipt-42@shop.example.org>',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      (
        Buffer.from(NEEDS_FIXES, 'utf8')
          .toString('base64')
          .match(/.{1,76}/g) ?? []
      ).join('\r\n'),
      '',
    ].join('\r\n');
    const file = writeEmail('receipt.eml', message);
    const output = JSON.parse(mailproof(['fix', file, '--json']).stdout);
    expect(output).toMatchObject({ input: { format: 'eml' }, format: 'eml', patched: 'compiled-html', written: false });
    expect(output.note).toContain('decoded HTML part of your message');
    expect(output.applied.length).toBeGreaterThan(0);
    // The answer is the decoded HTML part with the fixes, not base64 and not the message.
    expect(output.html).not.toContain('Content-Transfer-Encoding');
    expect(output.html).toContain('<table');

    const text = mailproof(['fix', file]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('The fixes are made in the decoded HTML part of this message, not in the file.');

    const refused = mailproof(['fix', file, '--write']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^mailproof: receipt\.eml: --write cannot patch a message/);
    expect(read(file)).toBe(message);
  });

  it('refuses --write for a Maizzle template found by its content, after compiling, and writes nothing', () => {
    const maizzle = ['---', 'title: Hi', '---', '<x-main>', '  <table><tr><td>{{ page.title }}</td></tr></table>', '</x-main>', ''].join('\n');
    const file = writeEmail('front-matter.html', maizzle);
    const refused = mailproof(['fix', file, '--write']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('front-matter.html: --write cannot patch a maizzle template');
    expect(read(file)).toBe(maizzle);
  });

  it.each([
    [['fix', 'missing.html'], 1, 'mailproof: missing.html: cannot read the file (no such file)'],
    [['fix', 'notes.txt'], 3, 'mailproof: cannot tell the format of notes.txt from its extension'],
    [['fix', 'any.html', '--tier', 'everything'], 3, "argument 'everything' is invalid. Allowed choices are safe, layout."],
    [['fix', 'any.html', '--clients', 'outlook'], 3, 'Unknown client id(s): outlook'],
    [['fix', '-', '--write'], 3, 'mailproof: --write needs a file: stdin (-) cannot be patched in place'],
  ])('%j exits %d with a clear message', (args, code, message) => {
    writeEmail('any.html', NEEDS_FIXES);
    writeEmail('notes.txt', NEEDS_FIXES);
    const result = mailproof(args, '');
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
    expectNoStackTrace(result.stderr);
  });

  it('reports a template that does not compile with its line, exit 1', () => {
    const file = writeEmail(
      'broken.mjml',
      '<mjml>\n<mj-body>\n<mj-section>\n<mj-column>\n<mj-text font-size="huge">x</mj-text>\n</mj-column>\n</mj-section>\n</mj-body>\n</mjml>\n',
    );
    const result = mailproof(['fix', file, '--mjml-validation', 'strict']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^mailproof: broken\.mjml: cannot compile mjml at line 5/);
    expectNoStackTrace(result.stderr);
  });
});
