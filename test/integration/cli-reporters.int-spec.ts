import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { sarifValidator } from '../../apps/cli/src/reporters/testing/sarif-schema';

// `--reporter` on the built `lint`, `gate --local` and `fix --check` (docs/cli.md, "Reporters"), as a plain Node
// process over the CLI fixtures: the code hosts' formats from real findings, at the author's positions.
const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'cli');
// Unreachable services and no GitHub variables: none of these commands may need them.
const BASE_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(GITHUB_|MAILPROOF_)/.test(name)));
const OFFLINE_ENV = { ...BASE_ENV, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', REDIS_URL: 'redis://127.0.0.1:9' };

function mailproof(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'mailproof.js'), ...args], {
    cwd: FIXTURES,
    env: { ...OFFLINE_ENV, ...env },
    encoding: 'utf8',
    // A deadline, not a speed target: a loaded 2-core machine once needed more than 60 s for a Maizzle compile.
    timeout: 240_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status === null) throw new Error(`mailproof ${args.join(' ')} was stopped (${result.signal ?? result.error?.message}); stderr: ${result.stderr}`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** 1-based line and column of the first occurrence of `text` in a fixture, as its author sees it in an editor. */
function positionIn(file: string, text: string): { line: number; column: number } {
  const source = readFileSync(join(FIXTURES, file), 'utf8');
  const at = source.indexOf(text);
  if (at < 0) throw new Error(`${file} does not contain ${text}`);
  const before = source.slice(0, at).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** The `::error …` / `::warning …` workflow commands of an output, their properties parsed. */
function annotations(stdout: string): Array<{ level: string; file: string; line?: number; col?: number; title: string; message: string }> {
  return stdout
    .split('\n')
    .filter((line) => /^::(error|warning|notice) /.test(line))
    .map((line) => {
      const [, level, props, message] = /^::(\w+) (.*?)::(.*)$/.exec(line)!;
      const fields = Object.fromEntries(
        props.split(',').map((pair) => [pair.slice(0, pair.indexOf('=')), decodeURIComponent(pair.slice(pair.indexOf('=') + 1))]),
      );
      return {
        level,
        file: fields.file,
        ...(fields.line === undefined ? {} : { line: Number(fields.line) }),
        ...(fields.col === undefined ? {} : { col: Number(fields.col) }),
        title: fields.title,
        message,
      };
    });
}

interface SarifLog {
  runs: Array<{
    tool: { driver: { rules: Array<{ id: string; helpUri: string; help: { text: string } }> } };
    results: Array<{
      ruleId: string;
      level: string;
      locations?: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }>;
    }>;
    properties: { passed: boolean; score?: number; exitCode?: number };
    invocations: Array<{ exitCode: number }>;
  }>;
}

function expectValidSarif(text: string): SarifLog {
  const log = JSON.parse(text) as SarifLog;
  const validate = sarifValidator();
  validate(log);
  expect(validate.errors ?? []).toEqual([]);
  return log;
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) });
interface JunitSuites {
  testsuites: { tests: string; failures: string; errors: string; testsuite: Array<{ name: string; testcase: Array<Record<string, unknown>> }> };
}
function parseJunit(text: string): JunitSuites {
  expect(XMLValidator.validate(text)).toBe(true);
  return xml.parse(text) as JunitSuites;
}

/** The templates' findings this file checks, at the element their author wrote. */
const TEMPLATE_FINDINGS = [
  { file: 'newsletter.mjml', rule: 'css-border-radius', at: '<mj-button' },
  { file: 'welcome.tsx', rule: 'css-border-radius', at: '<Container' },
  { file: 'promo.maizzle.html', rule: 'html-width', at: '<table' },
];

describe('--reporter on mailproof lint', () => {
  let dir: string;
  let github: ReturnType<typeof mailproof>;
  let sarif: SarifLog;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailproof-reporters-'));
    github = mailproof(
      ['lint', '--reporter', 'github', '--sarif-file', join(dir, 'lint.sarif'), ...TEMPLATE_FINDINGS.map((item) => item.file), 'with-errors.html'],
      {
        GITHUB_STEP_SUMMARY: join(dir, 'step-summary.markdown'),
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'acme/emails',
        GITHUB_RUN_ID: '9',
      },
    );
    sarif = expectValidSarif(readFileSync(join(dir, 'lint.sarif'), 'utf8'));
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(TEMPLATE_FINDINGS)('annotates $file at the line and column of $at in the template as written ($rule)', ({ file, rule, at }) => {
    const { line, column } = positionIn(file, at);
    const annotation = annotations(github.stdout).find((item) => item.file === file && item.title.startsWith(`${rule}:`));
    expect(annotation).toMatchObject({ level: 'warning', line, col: column });
    const result = sarif.runs[0].results.find((item) => item.ruleId === rule && item.locations?.[0].physicalLocation.artifactLocation.uri === file);
    expect(result?.locations?.[0].physicalLocation.region).toEqual({ startLine: line, startColumn: column });
  });

  it('annotates an error in HTML at its tag, fails with the exit code the text output gives, and writes the job summary', () => {
    const { line, column } = positionIn('with-errors.html', '<svg');
    expect(annotations(github.stdout)).toContainEqual(
      expect.objectContaining({ level: 'error', file: 'with-errors.html', line, col: column, title: 'html-svg: <svg>' }),
    );
    expect(github.code).toBe(1);
    expect(github.stdout.trim().split('\n').pop()).toMatch(/^4 files: \d+ errors?, \d+ warnings$/);
    const summary = readFileSync(join(dir, 'step-summary.markdown'), 'utf8');
    expect(summary).toContain('## Mailproof lint');
    expect(summary).toMatch(/\| with-errors\.html \| ❌ failed \| \d+ \|/);
    expect(summary).toContain('[This workflow run](https://github.com/acme/emails/actions/runs/9)');
  });

  it('the SARIF log has a rule per finding kind with an absolute help URI, and the verdict', () => {
    const { rules } = sarif.runs[0].tool.driver;
    expect(new Set(rules.map((rule) => rule.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(new URL(rule.helpUri).protocol).toBe('https:');
      expect(rule.help.text.length).toBeGreaterThan(0);
    }
    expect(sarif.runs[0].properties).toMatchObject({ passed: false });
    expect(sarif.runs[0].invocations[0].exitCode).toBe(1);
  });

  it('--reporter sarif prints the log, junit a suite per file with each error failing; the exit code is the same', () => {
    const printed = mailproof(['lint', '--reporter', 'sarif', 'with-errors.html', 'clean.html']);
    expect(printed.code).toBe(1);
    expect(expectValidSarif(printed.stdout).runs[0].results.map((item) => item.ruleId)).toContain('html-svg');

    const junit = mailproof(['lint', '--reporter', 'junit', 'with-errors.html', 'clean.html']);
    expect(junit.code).toBe(1);
    const { testsuites } = parseJunit(junit.stdout);
    expect(testsuites).toMatchObject({ failures: '1', errors: '0' });
    expect(testsuites.testsuite.map((suite) => suite.name)).toEqual(['with-errors.html', 'clean.html']);
    expect(testsuites.testsuite[0].testcase[0]).toMatchObject({ name: `html-svg (line ${positionIn('with-errors.html', '<svg').line})` });
  });

  it('--reporter json prints what --json prints; --reporter text what no reporter prints', () => {
    const json = mailproof(['lint', '--reporter', 'json', 'warnings-only.html']);
    const short = mailproof(['lint', '--json', 'warnings-only.html']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(short.stdout));
    expect(mailproof(['lint', '--reporter', 'text', 'warnings-only.html']).stdout).toBe(mailproof(['lint', 'warnings-only.html']).stdout);
    const disagree = mailproof(['lint', '--json', '--reporter', 'sarif', 'warnings-only.html']);
    expect(disagree.code).toBe(3);
    expect(disagree.stdout).toBe('');
  });
});

describe('--reporter on mailproof gate --local', () => {
  it('github: an error annotation per failure, on the file; sarif and junit: the same failures; exit 1 whatever the reporter', () => {
    const github = mailproof(['gate', '--local', '--reporter', 'github', 'with-errors.html', 'clean.html']);
    expect(github.code).toBe(1);
    const failures = annotations(github.stdout).filter((item) => item.level === 'error');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure).toMatchObject({ file: 'with-errors.html', title: expect.stringMatching(/^gate\//) });

    const sarif = mailproof(['gate', '--local', '--reporter', 'sarif', 'with-errors.html', 'clean.html']);
    expect(sarif.code).toBe(1);
    const log = expectValidSarif(sarif.stdout);
    expect(log.runs[0].results.filter((item) => item.level === 'error')).toHaveLength(failures.length);
    expect(log.runs[0].properties).toMatchObject({ passed: false, score: expect.any(Number) });

    const junit = mailproof(['gate', '--local', '--reporter', 'junit', 'with-errors.html', 'clean.html']);
    expect(junit.code).toBe(1);
    const { testsuites } = parseJunit(junit.stdout);
    expect(Number(testsuites.failures)).toBe(failures.length);
    expect(testsuites.testsuite[1]).toMatchObject({ name: 'clean.html', testcase: [{ name: 'gate clean.html', classname: 'clean.html' }] });
  });
});

describe('--reporter on mailproof fix --check', () => {
  it('github and sarif: each fix that would apply at its line in the file, exit 1', () => {
    const github = mailproof(['fix', '--check', '--reporter', 'github', 'with-errors.html']);
    expect(github.code).toBe(1);
    const fixes = annotations(github.stdout).filter((item) => item.level === 'error');
    expect(fixes.length).toBeGreaterThan(0);
    for (const fix of fixes) expect(fix).toMatchObject({ file: 'with-errors.html', line: expect.any(Number), title: expect.stringMatching(/^fix\//) });
    const sarif = mailproof(['fix', '--check', '--reporter', 'sarif', 'with-errors.html']);
    expect(sarif.code).toBe(1);
    expect(expectValidSarif(sarif.stdout).runs[0].results.filter((item) => item.level === 'error')).toHaveLength(fixes.length);
  });

  it('a fragment whose fixes would target the <html> the parser implied: no line 0, a valid SARIF log, exit 0', () => {
    // clean.html has no <html>: the language suggestion is about an element no line of the file holds.
    const github = mailproof(['fix', '--check', '--reporter', 'github', 'clean.html']);
    expect(github.code).toBe(0);
    const notes = annotations(github.stdout);
    expect(notes).toContainEqual(expect.objectContaining({ level: 'notice', file: 'clean.html', title: expect.stringMatching(/^fix\/document-language/) }));
    for (const note of notes) expect(note.line).not.toBe(0);
    const sarif = mailproof(['fix', '--check', '--reporter', 'sarif', 'clean.html']);
    expect(sarif.code).toBe(0);
    expect(expectValidSarif(sarif.stdout).runs[0].properties).toMatchObject({ passed: true });
    const junit = mailproof(['fix', '--check', '--reporter', 'junit', 'clean.html']);
    expect(parseJunit(junit.stdout).testsuites).toMatchObject({ failures: '0', errors: '0' });
    expect(junit.stdout).not.toContain('line 0');
  });

  it('a reporter for the code hosts without --check is a usage error (3), before anything is read', () => {
    const result = mailproof(['fix', '--reporter', 'sarif', 'no-such-file.html']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('add --check');
  });
});
