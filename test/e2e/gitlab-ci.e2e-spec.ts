import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parse } from 'yaml';
import { packCliPackage, runProcess } from '../utils/cli-package';
import { startGateServer, type GateServer } from '../utils/gate-server';

/**
 * The repository's GitLab CI template (ci/gitlab/mailproof.gitlab-ci.yml) run as a GitLab runner runs a job's
 * `script` with its bash shell (shells/bash.go in gitlab-runner): one script piped into bash that turns on
 * pipefail and errexit, exports the job's variables, changes into CI_PROJECT_DIR, then `eval`s every `script`
 * line in turn, echoing it first; the job fails with the first line that exits non-zero. The variables are
 * merged as GitLab ranks them: predefined CI_* < the pipeline's top-level `variables:` (the including file) <
 * the job's own `variables:` < the project's CI/CD variables (the masked key). The CLI it installs is this
 * repository's package, packed here (needs `npm run build`); the server is the real API and preview worker.
 */
const ROOT = join(__dirname, '..', '..');
const TEMPLATE = join(ROOT, 'ci', 'gitlab', 'mailproof.gitlab-ci.yml');
const JOB_NAME = 'mailproof-gate';
/** A clean email, and the same with a flex layout (an error in Outlook's Word engine), a link to nowhere and an image without alt text. */
const CI_FIXTURES = join(__dirname, '..', 'fixtures', 'ci');

interface GitlabJob {
  image: string;
  stage: string;
  variables?: Record<string, string>;
  script: string[];
  artifacts?: { when?: string; reports?: { junit?: string } };
}

interface JobRun {
  code: number;
  jobId: string;
  log: string;
  job: GitlabJob;
  /** The JUnit report the job published (its artifacts' reports.junit), when the file exists. */
  junit?: string;
}

/** A value as bash reads it back exactly: ANSI-C quoting, as the runner's ShellEscape writes it. */
function shellQuote(value: string): string {
  return `$'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

let jobCounter = 0;

async function runJob(projectDir: string, variables: { pipeline?: Record<string, string>; project?: Record<string, string> }, machineEnv: NodeJS.ProcessEnv) {
  const template = parse(readFileSync(TEMPLATE, 'utf8')) as Record<string, GitlabJob>;
  const job = template[JOB_NAME];
  jobCounter += 1;
  const jobId = String(process.pid * 100 + jobCounter);
  const predefined: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER_URL: 'https://gitlab.example.com',
    CI_PROJECT_PATH: 'acme/emails',
    CI_PROJECT_NAME: 'emails',
    CI_PROJECT_DIR: projectDir,
    CI_BUILDS_DIR: dirname(projectDir),
    CI_PIPELINE_ID: '5150',
    CI_JOB_ID: jobId,
    CI_JOB_NAME: JOB_NAME,
    CI_JOB_STAGE: job.stage,
    CI_JOB_URL: `https://gitlab.example.com/acme/emails/-/jobs/${jobId}`,
    CI_COMMIT_SHA: '0123456789abcdef0123456789abcdef01234567',
  };
  const exported = { ...predefined, ...variables.pipeline, ...job.variables, ...variables.project };
  const body = [
    ...Object.entries(exported).map(([name, value]) => `export ${name}=${shellQuote(String(value))}`),
    `cd ${shellQuote(projectDir)}`,
    ...job.script.flatMap((line) => [`echo ${shellQuote(`$ ${line.trim()}`)}`, line.trim()]),
  ].join('\n');
  const script = [
    '#!/usr/bin/env bash',
    'trap exit 1 TERM',
    'if set -o | grep pipefail > /dev/null; then set -o pipefail; fi; set -o errexit',
    'set +o noclobber',
    `: | eval ${shellQuote(body)}`,
    'exit 0',
    '',
  ].join('\n');
  const report = job.artifacts?.reports?.junit;
  const reportFile = report === undefined ? undefined : join(projectDir, report);
  // Each job starts from a fresh checkout: no report of an earlier job.
  if (reportFile !== undefined) rmSync(reportFile, { force: true });
  const result = await runProcess('bash', [], { cwd: projectDir, env: machineEnv, input: script });
  return {
    code: result.code,
    jobId,
    log: result.output,
    job,
    junit: reportFile !== undefined && existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : undefined,
  } satisfies JobRun;
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) });
interface JunitSuites {
  testsuites: { failures: string; errors: string; testsuite: Array<{ name: string; testcase: Array<{ name: string; failure?: unknown; error?: unknown }> }> };
}
function parseJunit(text: string | undefined): JunitSuites['testsuites'] {
  if (text === undefined) throw new Error('the job wrote no JUnit report');
  expect(XMLValidator.validate(text)).toBe(true);
  return (xml.parse(text) as JunitSuites).testsuites;
}

describe('the GitLab CI template (ci/gitlab/mailproof.gitlab-ci.yml)', () => {
  let server: GateServer;
  let tarball: string;
  let builds: string;
  let projectDir: string;
  let machineEnv: NodeJS.ProcessEnv;
  const packDir = mkdtempSync(join(tmpdir(), 'mailproof-gitlab-pack-'));

  beforeAll(async () => {
    tarball = packCliPackage(packDir);
    builds = mkdtempSync(join(tmpdir(), 'mailproof-gitlab-builds-'));
    projectDir = join(builds, 'acme', 'emails');
    mkdirSync(join(projectDir, 'emails', 'orders'), { recursive: true });
    copyFileSync(join(CI_FIXTURES, 'shipped.html'), join(projectDir, 'emails', 'orders', 'shipped.html'));
    copyFileSync(join(CI_FIXTURES, 'broken.html'), join(projectDir, 'emails', 'broken.html'));
    mkdirSync(join(projectDir, 'templates'));
    copyFileSync(join(__dirname, '..', 'fixtures', 'cli', 'newsletter.mjml'), join(projectDir, 'templates', 'newsletter.mjml'));
    // The container's environment: the machine's (its proxy and certificates for npm), none of this process's
    // own MAILPROOF_*, CI_* or GITLAB_* settings; a temporary folder of the job's own (the CLI installs there).
    // isolated-vm's native build (JSX and Maizzle only) takes minutes here: npm skips install scripts.
    const tmp = join(builds, 'tmp');
    mkdirSync(tmp);
    machineEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MAILPROOF_|CI_|GITLAB_|CI$)/.test(name))),
      TMPDIR: tmp,
      npm_config_ignore_scripts: 'true',
    };
    server = await startGateServer();
  }, 400_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(packDir, { recursive: true, force: true });
    if (builds) rmSync(builds, { recursive: true, force: true });
  });

  /** The server as masked project CI/CD variables, as the template's header says. */
  const serverVariables = () => ({ MAILPROOF_API_URL: server.url, MAILPROOF_API_KEY: server.proKey });

  it('is one job that publishes its JUnit report even when it fails', () => {
    const template = parse(readFileSync(TEMPLATE, 'utf8')) as Record<string, GitlabJob>;
    expect(Object.keys(template)).toEqual([JOB_NAME]);
    expect(template[JOB_NAME].image).toMatch(/^node:(2[0-9])-/);
    expect(template[JOB_NAME].artifacts).toEqual({ when: 'always', reports: { junit: 'mailproof-junit.xml' } });
    // GitLab takes only strings there: a plain YAML line holding ": " would be a mapping, and the pipeline invalid.
    for (const line of template[JOB_NAME].script) expect(typeof line).toBe('string');
  });

  it('fails the job on a failing email, with the JUnit report written', async () => {
    const result = await runJob(
      projectDir,
      { pipeline: { MAILPROOF_FILES: 'emails/**/*.html', MAILPROOF_CLI: tarball, MAILPROOF_CHECKS: 'compatibility,content' }, project: serverVariables() },
      machineEnv,
    );
    expect(result.code).toBe(1);
    expect(result.log).toContain('$ npm install --prefix "$prefix"');
    const report = parseJunit(result.junit);
    expect(report.testsuite.map((suite) => suite.name)).toEqual(['emails/broken.html', 'emails/orders/shipped.html']);
    const [broken, shipped] = report.testsuite;
    expect(broken.testcase.map((testcase) => testcase.name)).toEqual(expect.arrayContaining(['gate/links', 'gate/alt-text']));
    for (const testcase of broken.testcase) expect(testcase.failure).toBeDefined();
    expect(shipped.testcase).toEqual([expect.objectContaining({ name: 'gate emails/orders/shipped.html' })]);
    expect(shipped.testcase[0].failure).toBeUndefined();
    // The CLI went to the job's own temporary folder, not a shared one.
    expect(existsSync(join(machineEnv.TMPDIR!, `mailproof-cli-${result.jobId}`, 'node_modules', '@mailproof', 'cli', 'package.json'))).toBe(true);
  }, 600_000);

  it('passes the job on a passing email, with a report of passing cases', async () => {
    const result = await runJob(
      projectDir,
      {
        pipeline: { MAILPROOF_FILES: 'emails/orders/*.html', MAILPROOF_CLI: tarball, MAILPROOF_CHECKS: 'compatibility,content', MAILPROOF_THRESHOLD: '50' },
        project: serverVariables(),
      },
      machineEnv,
    );
    expect(result.log).not.toMatch(/^mailproof: /m);
    expect(result.code).toBe(0);
    const report = parseJunit(result.junit);
    expect(report).toMatchObject({ failures: '0', errors: '0' });
    expect(report.testsuite.map((suite) => suite.name)).toEqual(['emails/orders/shipped.html']);
  }, 600_000);

  it('MAILPROOF_LOCAL at the top level gates in the job with no server, installing the compilers an MJML email needs', async () => {
    const result = await runJob(
      projectDir,
      {
        pipeline: {
          MAILPROOF_FILES: 'templates/*.mjml emails/broken.html',
          MAILPROOF_CLI: tarball,
          MAILPROOF_LOCAL: 'true',
          MAILPROOF_CHECKS: 'compatibility',
        },
      },
      machineEnv,
    );
    expect(result.log).not.toMatch(/installs on demand|cannot compile|needs a key/);
    expect(result.code).toBe(1);
    const report = parseJunit(result.junit);
    expect(report.errors).toBe('0');
    expect(report.testsuite.map((suite) => suite.name)).toEqual(['templates/newsletter.mjml', 'emails/broken.html']);
    expect(report.testsuite[1].testcase.map((testcase) => testcase.name)).toContain('gate/client-errors in outlook-windows-legacy');
  }, 600_000);

  it('fails with a clear message (exit 2) when MAILPROOF_FILES matches no file', async () => {
    const result = await runJob(projectDir, { pipeline: { MAILPROOF_FILES: 'emails/*.tsx', MAILPROOF_CLI: tarball }, project: serverVariables() }, machineEnv);
    expect(result.code).toBe(2);
    expect(result.log).toContain('mailproof: no file matches MAILPROOF_FILES (emails/*.tsx)');
  }, 600_000);
});
