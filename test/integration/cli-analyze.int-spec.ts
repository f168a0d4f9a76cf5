import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The built `mailproof analyze | lint | clients` commands as a plain Node process (isolated-vm
// snapshots cannot load inside jest's process, a child process is fine).
const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'cli');
/** An email project written for these tests: emails importing local components, partials and layouts. */
const PROJECT = join(ROOT, 'test', 'fixtures', 'projects', 'acme-emails');
// Unreachable services: analysis must never need them.
const OFFLINE_ENV = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', REDIS_URL: 'redis://127.0.0.1:9' };

function mailproof(args: string[], stdin?: string, cwd = FIXTURES) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'mailproof.js'), ...args], {
    cwd,
    env: OFFLINE_ENV,
    encoding: 'utf8',
    input: stdin,
    // A deadline, not a speed target: a loaded 2-core machine once needed more than 60 s for a Maizzle compile.
    timeout: 180_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  // A run stopped at the deadline has no status: say so rather than fail later on empty output.
  if (result.status === null) throw new Error(`mailproof ${args.join(' ')} was stopped (${result.signal ?? result.error?.message}); stderr: ${result.stderr}`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function expectNoStackTrace(output: string): void {
  expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(output).not.toContain('node_modules');
}

describe('mailproof analyze', () => {
  it('prints the whole analysis as JSON, for all 21 clients by default', () => {
    const result = mailproof(['analyze', 'with-errors.html', '--json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.input).toEqual({ file: 'with-errors.html', format: 'html', detectedBy: 'extension', compileWarnings: [] });
    expect(output.overallScore).toEqual(expect.any(Number));
    expect(Object.keys(output.compatibilityScores)).toHaveLength(21);
    expect(output.compatibilityScores['gmail-web']).toEqual({ score: expect.any(Number), errors: 1, warnings: expect.any(Number), info: expect.any(Number) });
    expect(output.transforms).toHaveLength(21);
    expect(Object.keys(output.darkMode)).toHaveLength(21);
    expect(output.cssReport).toContainEqual(
      expect.objectContaining({ severity: 'error', client: 'gmail-web', property: '<svg>', rule: 'html-svg', line: 6, column: 3 }),
    );
  });

  it('analyzes only the clients asked for, in canonical order', () => {
    const result = mailproof(['analyze', 'with-errors.html', '--clients', 'outlook-windows-legacy, gmail-web', '--json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(Object.keys(output.compatibilityScores)).toEqual(['gmail-web', 'outlook-windows-legacy']);
    expect(output.transforms.map((t: { clientId: string }) => t.clientId)).toEqual(['gmail-web', 'outlook-windows-legacy']);
  });

  it('prints a readable summary: overall score, a row per client, top findings', () => {
    const result = mailproof(['analyze', 'with-errors.html']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('with-errors.html (html, from the file name)');
    expect(result.stdout).toMatch(/Overall score: \d+\/100 across 21 clients/);
    // No spamd in the CLI: the spam level says it is the engine's estimate.
    expect(result.stdout).toMatch(
      /^Spam: (?:low|medium|high) risk \(engine estimate, SpamAssassin not consulted: [\d.]+ points, high from 5; SpamAssassin's published scores give the same signals [\d.]+\)/m,
    );
    expect(result.stdout).toMatch(/^client\s+name\s+score\s+errors\s+warnings\s+info$/m);
    expect(result.stdout).toMatch(/^outlook-windows-legacy\s+Outlook Classic \(Word engine\)\s+\d+\s+1\s+\d+\s+\d+$/m);
    expect(result.stdout).toMatch(/^superhuman\s+Superhuman\s+100\s+0\s+0\s+\d+$/m);
    expect(result.stdout).toMatch(/Top findings: 1 error, \d+ warnings?/);
    expect(result.stdout).toMatch(/6:3\s+error\s+<svg>\s+html-svg/);
  });

  it.each([
    ['clean.html', 'html', 'extension'],
    ['welcome.tsx', 'jsx', 'extension'],
    ['newsletter.mjml', 'mjml', 'extension'],
    ['promo.maizzle.html', 'maizzle', 'extension'],
    ['front-matter.html', 'maizzle', 'content'],
  ])('takes the format of %s from its name or content (%s)', (file, format, detectedBy) => {
    const result = mailproof(['analyze', file, '--clients', 'gmail-web', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.input).toMatchObject({ file, format, detectedBy });
    expect(output.transforms[0].html).toMatch(/<table|<div/);
  });

  it('compiles what a template renders: jsx props, maizzle front matter', () => {
    const jsx = JSON.parse(mailproof(['analyze', 'welcome.tsx', '--clients', 'superhuman', '--json']).stdout);
    expect(jsx.transforms[0].html).toContain('Welcome aboard, Ada.');
    const maizzle = JSON.parse(mailproof(['analyze', 'front-matter.html', '--clients', 'superhuman', '--json']).stdout);
    expect(maizzle.transforms[0].html).toContain('Order shipped');
  });

  it('lets --format override the file name', () => {
    const result = mailproof(['analyze', 'notes.txt', '--format', 'html', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).input).toMatchObject({ format: 'html', detectedBy: 'option' });
  });

  it('reads stdin for -, recognizing the format from the content', () => {
    const html = mailproof(['analyze', '-', '--json'], '<table><tr><td style="border-radius:4px">Hi</td></tr></table>');
    expect(html.code).toBe(0);
    const output = JSON.parse(html.stdout);
    expect(output.input).toMatchObject({ file: '-', format: 'html', detectedBy: 'content' });
    expect(output.cssReport).toContainEqual(expect.objectContaining({ client: 'outlook-windows-legacy', property: 'border-radius', severity: 'warning' }));

    const mjml = mailproof(['analyze', '-', '--json'], '<mjml><mj-body><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>');
    expect(JSON.parse(mjml.stdout).input).toMatchObject({ format: 'mjml', detectedBy: 'content' });

    const explicit = mailproof(['analyze', '-', '--format', 'maizzle', '--json'], '<x-main><p>{{ 1 + 1 }}</p></x-main>');
    expect(explicit.code).toBe(0);
    expect(JSON.parse(explicit.stdout).transforms[0].html).toContain('<p>2</p>');
  });

  it('analyzes a whole message (.eml, or a header block on stdin): its HTML part, then the message report with the bulk-sender checklist', () => {
    const text = mailproof(['analyze', 'spring-sale.eml']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('spring-sale.eml (eml, from the file name)');
    expect(text.stdout).toContain('  From: Acme Outdoor <news@acme-outdoor.example>\n');
    // The RFC 2047 subject decoded.
    expect(text.stdout).toContain('  Subject: Spring gear \u2014 20% off\n');
    expect(text.stdout).toContain('  List-Unsubscribe: https; one-click (RFC 8058): no\n');
    expect(text.stdout).toMatch(/Gmail\/Yahoo bulk-sender requirements \(bulk mail\): not all met\n/);
    expect(text.stdout).toMatch(/NOT MET +one-click-unsubscribe +.+\n +fix: .*List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    expect(text.stdout).toMatch(/met +valid-message-id/);
    // The HTML part's own findings, at lines of the decoded part (quoted-printable undone).
    expect(text.stdout).toContain('(lines refer to the decoded HTML part of the message)');
    expect(text.stdout).toMatch(/2:\d+ +error +display:flex +css-display-flex +outlook-windows-legacy/);

    const json = JSON.parse(mailproof(['analyze', 'spring-sale.eml', '--json']).stdout);
    expect(json.input).toMatchObject({ format: 'eml', detectedBy: 'extension' });
    expect(json.compiledHtml).toContain('<a href="https://acme-outdoor.example/sale">');
    expect(json.messageReport).toMatchObject({ headers: { subject: 'Spring gear \u2014 20% off' }, bulkSender: { bulk: true } });
    expect(JSON.parse(mailproof(['analyze', 'clean.html', '--json']).stdout).messageReport).toBeNull();

    const stdin = mailproof(['analyze', '-'], readFileSync(join(FIXTURES, 'spring-sale.eml'), 'utf8'));
    expect(stdin.code).toBe(0);
    expect(stdin.stdout).toContain('stdin (eml, from the content)');
  });

  it('refuses what is not a message with its reason, exit 1 and no stack trace', () => {
    const result = mailproof(['analyze', '-', '--format', 'eml'], '<p>markup, not a message</p>');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stdin: /);
    expectNoStackTrace(result.stderr);
  });

  it('refuses unknown client ids with exit 3 and lists the valid ones', () => {
    const result = mailproof(['analyze', 'clean.html', '--clients', 'gmail-web,outlook']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('mailproof: Unknown client id(s): outlook.');
    expect(result.stderr).toContain('Valid ids: gmail-web, gmail-android,');
    expect(result.stderr).toContain('superhuman');
    expectNoStackTrace(result.stderr);
  });

  it('refuses an unknown format or an extension that says nothing with exit 3', () => {
    const badFormat = mailproof(['analyze', 'clean.html', '--format', 'markdown']);
    expect(badFormat.code).toBe(3);
    expect(badFormat.stderr).toContain("argument 'markdown' is invalid. Allowed choices are html, jsx, mjml, maizzle, eml.");
    const unknownExtension = mailproof(['analyze', 'notes.txt']);
    expect(unknownExtension.code).toBe(3);
    expect(unknownExtension.stderr).toContain('cannot tell the format of notes.txt from its extension');
    expect(unknownExtension.stderr).toContain('pass --format html|jsx|mjml|maizzle');
  });

  it('explains an unreadable file with exit 1', () => {
    const missing = mailproof(['analyze', 'missing.html']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('mailproof: missing.html: cannot read the file (no such file)\n');
    const folder = mailproof(['analyze', '.', '--format', 'html']);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain('is a directory');
  });

  it('reports compile errors with their line, without a stack trace', () => {
    const mjml = mailproof(['analyze', 'invalid-attribute.mjml', '--mjml-validation', 'strict']);
    expect(mjml.code).toBe(1);
    expect(mjml.stderr).toContain('mailproof: invalid-attribute.mjml: cannot compile mjml at line 5: <mj-text>: Attribute font-size has invalid value: huge');
    expectNoStackTrace(mjml.stderr);

    const jsx = mailproof(['analyze', 'local-import.tsx']);
    expect(jsx.code).toBe(1);
    expect(jsx.stderr).toContain('local-import.tsx: cannot compile jsx at line 2, column 24: Import of "./footer" is not among the files sent with the email');
    expectNoStackTrace(jsx.stderr);
  });

  it("reports MJML validation as warnings with their line by default (MJML's soft level)", () => {
    const result = mailproof(['analyze', 'invalid-attribute.mjml', '--json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.input.compileWarnings).toEqual([{ line: 5, message: expect.stringContaining('<mj-text>: Attribute font-size has invalid value: huge') }]);
    expect(output.templateReport.issues).toContainEqual(expect.objectContaining({ rule: 'mjml-validation', severity: 'warning', line: 5 }));
  });

  it('compiles an email with its local imports, read from its project folder', () => {
    const inProject = (args: string[]) => mailproof(args, undefined, PROJECT);
    const jsx = inProject(['analyze', 'emails/welcome.tsx', '--json']);
    expect(jsx.stderr).toBe('');
    const jsxOutput = JSON.parse(jsx.stdout);
    expect(jsxOutput.compiledHtml).toContain('data-brand="Acme Rockets"');
    expect(jsxOutput.compiledHtml).toMatch(/color:rgb\(11,95,255\)/);

    const mjml = JSON.parse(inProject(['analyze', 'emails/newsletter.mjml', '--json']).stdout);
    expect(mjml.compiledHtml).toContain('Acme Monthly');
    expect(mjml.input.compileWarnings).toEqual([{ line: 6, message: expect.stringContaining('font-size has invalid value: 13') }]);

    const maizzle = JSON.parse(inProject(['analyze', 'emails/receipt.maizzle.html', '--json']).stdout);
    expect(maizzle.compiledHtml).toContain('class="acme-layout"');
    expect(maizzle.compiledHtml).toContain('Acme Rockets, 1 Launch Way');

    const missing = inProject(['lint', 'emails/missing-import.tsx']);
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toMatch(/line 2, column 24: Import of "\.\.\/components\/Footer" is not among the files/);
  });

  it('turns engine limits into a clear message with exit 1', () => {
    const result = mailproof(['analyze', '-'], `${'<div>'.repeat(1_100)}deep${'</div>'.repeat(1_100)}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('mailproof: stdin: too large or too deep to analyze: Elements nest more than 1000 levels deep.\n');
  });
});

describe('mailproof lint', () => {
  it('exits 0 for a clean file and prints its summary', () => {
    const result = mailproof(['lint', 'clean.html']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('clean.html (html, from the file name)  score 100/100');
    expect(result.stdout).toContain('1 file: 0 errors, 0 warnings');
  });

  it('exits 0 for warnings alone, 2 with --fail-on-warning', () => {
    const lenient = mailproof(['lint', 'warnings-only.html', 'clean.html']);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/4:9\s+warning\s+border-radius\s+css-border-radius\s+outlook-windows-legacy/);
    expect(mailproof(['lint', 'warnings-only.html', 'clean.html', '--fail-on-warning']).code).toBe(2);
  });

  it('exits 1 on any error, even with --fail-on-warning', () => {
    const result = mailproof(['lint', 'clean.html', 'with-errors.html', 'warnings-only.html', '--fail-on-warning']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/6:3\s+error\s+<svg>\s+html-svg\s+gmail-web, gmail-android, gmail-ios \+\d+ more/);
    expect(result.stdout).toMatch(/3 files: 1 error, \d+ warnings/);
  });

  it('prints findings per file as JSON with the exit code', () => {
    const result = mailproof(['lint', 'with-errors.html', 'warnings-only.html', '--json']);
    expect(result.code).toBe(1);
    const output = JSON.parse(result.stdout);
    expect(output.exitCode).toBe(1);
    expect(output.summary).toEqual({ files: 2, failed: 0, errors: 1, warnings: expect.any(Number), info: expect.any(Number) });
    const [withErrors, warningsOnly] = output.files;
    expect(withErrors).toMatchObject({ file: 'with-errors.html', ok: true, format: 'html', detectedBy: 'extension', counts: { error: 1 } });
    expect(withErrors.problems[0]).toMatchObject({ severity: 'error', property: '<svg>', rule: 'html-svg', line: 6, column: 3 });
    expect(withErrors.problems[0].clients).toContain('gmail-web');
    expect(withErrors.findings.length).toBeGreaterThan(withErrors.problems.length);
    expect(warningsOnly.counts).toEqual({ error: 0, warning: 1, info: expect.any(Number) });
  });

  it('exits 1 when a file cannot be compiled or read, and still reports the others', () => {
    const result = mailproof(['lint', 'invalid-attribute.mjml', 'clean.html', 'missing.html', '--json', '--mjml-validation', 'strict']);
    expect(result.code).toBe(1);
    const output = JSON.parse(result.stdout);
    expect(output.files[0]).toEqual({
      file: 'invalid-attribute.mjml',
      ok: false,
      error: { kind: 'compile', line: 5, message: expect.stringContaining('cannot compile mjml at line 5') },
    });
    expect(output.files[1]).toMatchObject({ file: 'clean.html', ok: true });
    expect(output.files[2]).toMatchObject({ file: 'missing.html', ok: false, error: { kind: 'read' } });
    expect(output.summary.failed).toBe(2);
  });

  it('lints stdin and honors --clients', () => {
    const result = mailproof(['lint', '-', '--clients', 'apple-mail-macos', '--json'], '<svg width="1" height="1"></svg>');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.files[0]).toMatchObject({ file: '-', format: 'html', counts: { error: 0, warning: 0 } });
    expect(new Set(output.files[0].findings.map((f: { client: string }) => f.client))).toEqual(new Set(['apple-mail-macos']));
  });

  it('checks the whole command line before analyzing: exit 3, nothing printed on stdout', () => {
    for (const args of [['lint', 'clean.html', 'notes.txt'], ['lint', 'clean.html', '--clients', 'hotmail'], ['lint', 'clean.html', '--bogus'], ['lint']]) {
      const result = mailproof(args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 3, stdout: '' });
      expectNoStackTrace(result.stderr);
    }
  });
});

describe('mailproof clients', () => {
  it('lists the 21 clients as JSON', () => {
    const result = mailproof(['clients', '--json']);
    expect(result.code).toBe(0);
    const { clients, properties } = JSON.parse(result.stdout);
    expect(clients).toHaveLength(21);
    expect(clients[0]).toEqual({
      id: 'gmail-web',
      name: 'Gmail',
      category: 'webmail',
      engine: 'Blink',
      renderer: expect.stringMatching(/Gmail/),
      darkMode: 'none',
      darkModel: 'none',
      modelCheckedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      behaviors: expect.any(Number),
      inventory: {
        modeled: expect.any(Number),
        notModeled: expect.any(Number),
        notApplicable: expect.any(Number),
        sourcesReadAt: { caniemail: expect.any(String), emailBugs: expect.any(String), vendor: expect.any(String) },
      },
    });
    expect(clients.map((c: { id: string }) => c.id)).toContain('outlook-windows-legacy');
    expect(properties).toBeUndefined();
  });

  it('lists tracked properties with per-client support', () => {
    const { clients, properties } = JSON.parse(mailproof(['clients', '--properties', '--json']).stdout);
    expect(clients).toHaveLength(21);
    expect(properties.length).toBeGreaterThanOrEqual(298);
    const borderRadius = properties.find((p: { property: string }) => p.property === 'border-radius');
    expect(borderRadius.features).toContain('css-border-radius');
    expect(Object.keys(borderRadius.support)).toHaveLength(21);
    expect(borderRadius.support['outlook-windows-legacy'].level).toBe('unsupported');
  });

  it('prints a table, and a support matrix with --properties', () => {
    const table = mailproof(['clients']);
    expect(table.stdout).toMatch(/^id\s+name\s+category\s+engine\s+darkModel\s+modelCheckedAt$/m);
    expect(table.stdout).toMatch(/^outlook-windows-legacy\s.*\sWord\s+full-inversion\s/m);
    expect(table.stdout.trim().split('\n')).toHaveLength(22);
    const matrix = mailproof(['clients', '--properties']);
    expect(matrix.code).toBe(0);
    expect(matrix.stdout).toMatch(/^border-radius\s+(?:[yan.]\s+){5}n\s/m);
  });

  it('appears in the help with analyze and lint', () => {
    const help = mailproof(['--help']);
    for (const command of ['analyze', 'lint', 'clients', 'migrate', 'account', 'key']) expect(help.stdout).toContain(command);
  });
});
