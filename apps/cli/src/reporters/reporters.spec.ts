import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { CheckReport } from './check-report';
import { defaultDocsUrl, ruleHelpUri } from './check-report';
import { githubAnnotations, githubJobSummary, writeGithubReport } from './github';
import { toJunit } from './junit';
import { toSarif } from './sarif';
import { sarifValidator } from './testing/sarif-schema';

/** The page the help links name (docs/rules.md), kept apart from the URLs that contain it. */
const RULES_PAGE = 'rules.md';

/** A lint over three files: one with an error and a warning at source positions, one clean, one that failed to compile. */
const REPORT: CheckReport = {
  command: 'lint',
  exitCode: 1,
  summary: '3 files: 1 could not be analyzed, 1 error, 1 warning',
  files: [
    {
      file: 'emails/promo, 50% off.mjml',
      outcome: 'failed',
      score: 62,
      clientScores: [{ clientId: 'outlook-windows-legacy', score: 62, errors: 2, warnings: 1 }],
      problems: [
        {
          severity: 'error',
          ruleId: 'css-display-flex',
          title: 'display:flex',
          message: 'display:flex is not supported: the Word engine lays it out as a block',
          line: 12,
          column: 7,
          clients: ['outlook-windows-legacy', 'outlook-windows'],
          blocking: true,
          help: 'Use a table for the columns.',
        },
        {
          severity: 'warning',
          ruleId: 'css-border-radius',
          title: 'border-radius',
          message: 'border-radius: no rounded corners\nin Word',
          line: 3,
          blocking: false,
        },
      ],
    },
    { file: 'emails/clean.html', outcome: 'passed', score: 100, problems: [] },
    {
      file: 'emails/broken.tsx',
      outcome: 'error',
      problems: [
        {
          severity: 'error',
          ruleId: 'input/compile',
          title: 'cannot check the email',
          message: 'cannot compile jsx at line 4: Unexpected "}"',
          line: 4,
          column: 2,
          blocking: true,
        },
      ],
    },
  ],
};

describe('SARIF reporter', () => {
  const log = toSarif(REPORT, { docsUrl: 'https://docs.example.org/mailproof/', toolVersion: '1.2.3', cwd: '/work/repo' }) as {
    runs: Array<{
      tool: { driver: { rules: Array<{ id: string; helpUri: string; help: { text: string } }> } };
      results: Array<Record<string, unknown>>;
      properties: Record<string, unknown>;
    }>;
  };

  it('validates against the official SARIF 2.1.0 schema', () => {
    const validate = sarifValidator();
    expect(validate(log)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
  });

  it('the schema check itself rejects a log that breaks it', () => {
    const broken = JSON.parse(JSON.stringify(log)) as { runs: Array<{ results: Array<Record<string, unknown>> }> };
    broken.runs[0].results[0].level = 'fatal';
    expect(sarifValidator()(broken)).toBe(false);
  });

  it('has one rule per finding kind, each with help text and an absolute help URI into the docs', () => {
    const { rules } = log.runs[0].tool.driver;
    expect(rules.map((rule) => rule.id)).toEqual(['css-display-flex', 'css-border-radius', 'input/compile']);
    expect(rules[0].helpUri).toBe(`https://docs.example.org/mailproof/${RULES_PAGE}#compatibility-findings`);
    expect(rules[2].helpUri).toBe(`https://docs.example.org/mailproof/${RULES_PAGE}#input-problems`);
    expect(rules[0].help.text).toBe('Use a table for the columns.');
    for (const rule of rules) expect(new URL(rule.helpUri).protocol).toBe('https:');
  });

  it('puts results at the source line and column, relative to the working directory, percent-encoded', () => {
    const [first] = log.runs[0].results;
    expect(first).toMatchObject({
      ruleId: 'css-display-flex',
      ruleIndex: 0,
      level: 'error',
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'emails/promo%2C%2050%25%20off.mjml', uriBaseId: 'SRCROOT' },
            region: { startLine: 12, startColumn: 7 },
          },
        },
      ],
      properties: { clients: ['outlook-windows-legacy', 'outlook-windows'] },
    });
    expect(log.runs[0].results).toHaveLength(3);
    expect(log.runs[0].properties).toMatchObject({ passed: false, score: 62 });
  });
});

describe('GitHub reporter', () => {
  it('writes one workflow command per problem with file, line, col and title, escaping what would end it', () => {
    const lines = githubAnnotations(REPORT);
    expect(lines[0]).toBe(
      '::error file=emails/promo%2C 50%25 off.mjml,line=12,col=7,title=css-display-flex%3A display%3Aflex::display:flex is not supported: the Word engine lays it out as a block (outlook-windows-legacy, outlook-windows)%0AUse a table for the columns.',
    );
    expect(lines[1]).toBe(
      '::warning file=emails/promo%2C 50%25 off.mjml,line=3,title=css-border-radius%3A border-radius::border-radius: no rounded corners%0Ain Word',
    );
    expect(lines[2]).toMatch(/^::error file=emails\/broken.tsx,line=4,col=2,title=input\/compile%3A cannot check the email::cannot compile jsx/);
    expect(lines).toHaveLength(3);
  });

  it('appends a Markdown job summary with scores per client, the failures and the run link', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailproof-summary-'));
    const summaryFile = join(dir, 'summary.markdown');
    try {
      const env = { GITHUB_STEP_SUMMARY: summaryFile, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/emails', GITHUB_RUN_ID: '77' };
      const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      writeGithubReport(REPORT, env);
      writeGithubReport(REPORT, env);
      log.mockRestore();
      const summary = readFileSync(summaryFile, 'utf8');
      expect(summary.match(/^## Mailproof lint$/gm)).toHaveLength(2);
      expect(summary).toContain('| outlook-windows-legacy | 62 | 2 | 1 |');
      expect(summary).toContain('- **css-display-flex** (line 12, column 7): display:flex is not supported');
      expect(summary).toContain('[This workflow run](https://github.com/acme/emails/actions/runs/77)');
      expect(summary).toContain('| emails/clean.html | ✅ passed | 100 |');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the run link out when the GitHub variables are not set', () => {
    expect(githubJobSummary(REPORT, {})).not.toContain('workflow run');
  });
});

describe('JUnit reporter', () => {
  const xml = toJunit(REPORT);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(
    xml,
  ) as {
    testsuites: {
      tests: string;
      failures: string;
      errors: string;
      testsuite: Array<{ name: string; tests: string; testcase: Array<Record<string, unknown>>; 'system-out'?: string }>;
    };
  };

  it('is well-formed XML', () => {
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it('has a suite per file, a failing case per blocking problem, an error case for a file not checked', () => {
    const { testsuites } = parsed;
    expect(testsuites).toMatchObject({ tests: '3', failures: '1', errors: '1' });
    const [promo, clean, broken] = testsuites.testsuite;
    expect(promo.name).toBe('emails/promo, 50% off.mjml');
    expect(promo.testcase).toHaveLength(1);
    expect(promo.testcase[0]).toMatchObject({
      name: 'css-display-flex (line 12)',
      failure: { message: expect.stringContaining('display:flex'), type: 'error' },
    });
    expect(promo['system-out']).toContain('line 3: warning css-border-radius');
    expect(clean.testcase).toEqual([{ name: 'lint emails/clean.html', classname: 'emails/clean.html' }]);
    expect(broken.testcase[0].error).toMatchObject({ type: 'input/compile' });
  });
});

describe('help URIs', () => {
  it('point gate checks at their own section', () => {
    expect(ruleHelpUri('gate/threshold', 'https://docs.example.org')).toBe(`https://docs.example.org/${RULES_PAGE}#gate-threshold`);
    expect(ruleHelpUri('fix/layout-table-role', 'https://docs.example.org/')).toBe(`https://docs.example.org/${RULES_PAGE}#fixes`);
  });

  it('default to the docs published in the package at the version that wrote the report', () => {
    const base = defaultDocsUrl('1.2.3');
    expect(base).toBe('https://cdn.jsdelivr.net/npm/@mailproof/cli@1.2.3/docs');
    const uri = new URL(ruleHelpUri('css/flexbox', base));
    expect(uri.protocol).toBe('https:');
    expect(uri.href).toBe(`https://cdn.jsdelivr.net/npm/@mailproof/cli@1.2.3/docs/${RULES_PAGE}#compatibility-findings`);
  });
});
