import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { sarifValidator } from '../../apps/cli/src/reporters/testing/sarif-schema';
import { packCliPackage, runProcess } from '../utils/cli-package';
import { startGateServer, type GateServer } from '../utils/gate-server';

/**
 * The repository's action.yml run as a GitHub runner runs a composite action: each `run` step in bash
 * (`bash --noprofile --norc -eo pipefail`), its `env` with the `${{ … }}` expressions substituted, the
 * GITHUB_* variables, a GITHUB_OUTPUT file per step whose `name=value` lines become the step's outputs, one
 * GITHUB_STEP_SUMMARY file; the action's outputs from its steps' outputs. The CLI it installs is this
 * repository's package, packed here (needs `npm run build`); the server is the real API and preview worker.
 */
const ROOT = join(__dirname, '..', '..');

interface ActionStep {
  id?: string;
  name?: string;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
}
interface ActionFile {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

interface ActionRun {
  /** The exit code of the first step that failed (the runner stops there), else 0. */
  code: number;
  failedStep?: string;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/** A clean email, and the same with a flex layout (an error in Outlook's Word engine), a link to nowhere and an image without alt text. */
const CI_FIXTURES = join(__dirname, '..', 'fixtures', 'ci');

/** `name=value` lines of a GITHUB_OUTPUT file (the multi-line `name<<EOF` form is not used by the action). */
function readOutputs(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const outputs: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}

async function runAction(inputs: Record<string, string>, workspace: string, runnerTemp: string, extraEnv: NodeJS.ProcessEnv): Promise<ActionRun> {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionFile;
  expect(action.runs.using).toBe('composite');
  for (const [name, input] of Object.entries(action.inputs)) if (input.required) expect(inputs[name]).toBeDefined();
  const files = mkdtempSync(join(tmpdir(), 'mailproof-runner-files-'));
  const summaryFile = join(files, 'step-summary.markdown');
  writeFileSync(summaryFile, '');
  const stepOutputs: Record<string, Record<string, string>> = {};
  const inputValue = (name: string) => inputs[name] ?? action.inputs[name]?.default ?? '';
  const substitute = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_match, expression: string) => {
      let found: RegExpExecArray | null;
      if ((found = /^inputs\.([\w-]+)$/.exec(expression))) return inputValue(found[1]);
      if (expression === 'runner.temp') return runnerTemp;
      if (expression === 'github.action_path') return ROOT;
      if ((found = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression))) return stepOutputs[found[1]]?.[found[2]] ?? '';
      throw new Error(`action.yml uses an expression this runner does not implement: ${expression}`);
    });
  // A runner's steps inherit the machine's environment (its proxy and certificates for npm included); none of
  // this process's own MAILPROOF_* or GITHUB_* settings may leak into the action.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MAILPROOF_|GITHUB_|INPUT_|RUNNER_)/.test(name)));
  const base: NodeJS.ProcessEnv = {
    ...inherited,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'acme/emails',
    GITHUB_RUN_ID: '4242',
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: runnerTemp,
    ...Object.fromEntries(Object.keys(action.inputs).map((name) => [`INPUT_${name.toUpperCase()}`, inputValue(name)])),
    ...extraEnv,
  };
  let stdout = '';
  try {
    for (const [index, step] of action.runs.steps.entries()) {
      expect(step.shell).toBe('bash');
      const outputFile = join(files, `output-${index}`);
      writeFileSync(outputFile, '');
      const script = join(files, `step-${index}.sh`);
      writeFileSync(script, substitute(step.run ?? ''));
      const env = {
        ...base,
        GITHUB_OUTPUT: outputFile,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, substitute(String(value))])),
      };
      const result = await runProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env });
      stdout += result.output;
      if (step.id) stepOutputs[step.id] = readOutputs(outputFile);
      if (result.code !== 0) {
        return {
          code: result.code,
          failedStep: step.id ?? step.name,
          stdout,
          outputs: actionOutputs(action, substitute),
          summary: readFileSync(summaryFile, 'utf8'),
        };
      }
    }
    return { code: 0, stdout, outputs: actionOutputs(action, substitute), summary: readFileSync(summaryFile, 'utf8') };
  } finally {
    rmSync(files, { recursive: true, force: true });
  }
}

function actionOutputs(action: ActionFile, substitute: (text: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value)]));
}

describe('the GitHub Action (action.yml)', () => {
  let server: GateServer;
  let tarball: string;
  let workspace: string;
  // Kept between runs, as a runner's tool cache would be: the install step then only replaces the CLI.
  const runnerTemp = join(tmpdir(), 'mailproof-action-runner-temp');
  const packDir = mkdtempSync(join(tmpdir(), 'mailproof-action-pack-'));

  beforeAll(async () => {
    tarball = packCliPackage(packDir);
    mkdirSync(runnerTemp, { recursive: true });
    workspace = mkdtempSync(join(tmpdir(), 'mailproof-action-workspace-'));
    mkdirSync(join(workspace, 'emails'));
    copyFileSync(join(CI_FIXTURES, 'shipped.html'), join(workspace, 'emails', 'shipped.html'));
    copyFileSync(join(CI_FIXTURES, 'broken.html'), join(workspace, 'emails', 'broken.html'));
    server = await startGateServer();
  }, 400_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(packDir, { recursive: true, force: true });
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  // isolated-vm's native build (JSX and Maizzle compile in the job, not used by a gate against a server) takes
  // minutes on this machine; the runner's npm skips install scripts so the test stays within its budget.
  const npmEnv = { npm_config_ignore_scripts: 'true' };

  it('fails the step on a failing email, with annotations, a job summary, a SARIF log and passed=false', async () => {
    const result = await runAction(
      {
        files: 'emails/broken.html',
        'server-url': server.url,
        'api-key': server.proKey,
        package: tarball,
        'sarif-file': 'out/mailproof.sarif',
        checks: 'compatibility,content',
      },
      workspace,
      runnerTemp,
      npmEnv,
    );
    expect(result.failedStep).toBe('gate');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^::error file=emails\/broken\.html,title=gate\/links%3A links::a link goes nowhere \(placeholder\): href="#"$/m);
    expect(result.stdout).toMatch(/^::error file=emails\/broken\.html,title=gate\/alt-text%3A alt-text::/m);
    expect(result.stdout).toMatch(/^::error file=emails\/broken\.html,title=gate\/client-errors%3A client-errors in outlook-windows-legacy::/m);
    expect(result.summary).toContain('## Mailproof gate');
    expect(result.summary).toContain('| emails/broken.html | ❌ failed |');
    expect(result.summary).toContain('[This workflow run](https://github.com/acme/emails/actions/runs/4242)');
    expect(result.outputs.passed).toBe('false');
    expect(result.outputs['sarif-file']).toBe('out/mailproof.sarif');
    expect(Number(result.outputs.score)).toBeLessThan(100);
    const sarif = JSON.parse(readFileSync(join(workspace, 'out', 'mailproof.sarif'), 'utf8'));
    expect(sarifValidator()(sarif)).toBe(true);
    expect(sarif.runs[0].results.map((item: { ruleId: string }) => item.ruleId)).toEqual(expect.arrayContaining(['gate/links', 'gate/alt-text']));
  }, 600_000);

  it('passes the step on a passing email with passed=true and its score', async () => {
    const result = await runAction(
      { files: 'emails/shipped.html', 'server-url': server.url, 'api-key': server.proKey, package: tarball, checks: 'compatibility,content', threshold: '50' },
      workspace,
      runnerTemp,
      npmEnv,
    );
    expect(result.stdout).not.toMatch(/^::error/m);
    expect(result.code).toBe(0);
    expect(result.outputs).toEqual({ passed: 'true', score: expect.stringMatching(/^\d+$/), 'sarif-file': 'mailproof.sarif' });
    expect(result.summary).toContain('| emails/shipped.html | ✅ passed |');
    expect(existsSync(join(workspace, 'mailproof.sarif'))).toBe(true);
  }, 600_000);

  it('update-baseline: never gates against the baseline without storing one (a pull request), the default stores it', async () => {
    mkdirSync(join(workspace, 'emails', 'drafts'), { recursive: true });
    copyFileSync(join(CI_FIXTURES, 'shipped.html'), join(workspace, 'emails', 'drafts', 'autumn.html'));
    const inputs = { files: 'emails/drafts/autumn.html', 'server-url': server.url, 'api-key': server.proKey, package: tarball, threshold: '50' };
    const noBaseline = 'ref emails/drafts/autumn.html has no stored baseline yet';
    const pullRequest = await runAction({ ...inputs, 'update-baseline': 'never' }, workspace, runnerTemp, npmEnv);
    expect(pullRequest.outputs.passed).toBe('true');
    expect(pullRequest.summary).toContain(noBaseline);
    const main = await runAction(inputs, workspace, runnerTemp, npmEnv);
    expect(main.outputs.passed).toBe('true');
    // Nothing was stored by the first run, so the second still had nothing to compare with; it stored this version.
    expect(main.summary).toContain(noBaseline);
    const next = await runAction({ ...inputs, 'update-baseline': 'never' }, workspace, runnerTemp, npmEnv);
    expect(next.summary).toMatch(/ref emails\/drafts\/autumn\.html, compared with the version stored /);
  }, 600_000);

  it("installs the compilers of the formats it gates (the package's optional peers): an MJML email gated in the job", async () => {
    mkdirSync(join(workspace, 'templates'), { recursive: true });
    copyFileSync(join(__dirname, '..', 'fixtures', 'cli', 'newsletter.mjml'), join(workspace, 'templates', 'newsletter.mjml'));
    const result = await runAction(
      { files: 'templates/*.mjml', local: 'true', package: tarball, checks: 'compatibility', threshold: '0' },
      workspace,
      runnerTemp,
      npmEnv,
    );
    // Without mjml and esbuild beside the CLI, the email could not be compiled and would be reported so.
    expect(result.stdout).not.toMatch(/installs on demand|cannot compile/);
    expect(existsSync(join(runnerTemp, 'mailproof-cli', 'node_modules', 'mjml', 'package.json'))).toBe(true);
    expect(existsSync(join(runnerTemp, 'mailproof-cli', 'node_modules', 'isolated-vm'))).toBe(false);
    expect(result.summary).toContain('templates/newsletter.mjml');
    expect(result.outputs.score).toMatch(/^\d+$/);
  }, 600_000);

  it('fails with a clear error when no file matches or no server is named', async () => {
    const nothing = await runAction({ files: 'emails/*.mjml', local: 'true', package: tarball }, workspace, runnerTemp, npmEnv);
    expect(nothing.code).toBe(2);
    expect(nothing.stdout).toContain('::error title=mailproof::no file matches the files input (emails/*.mjml)');
    const noServer = await runAction({ files: 'emails/*.html', package: tarball }, workspace, runnerTemp, npmEnv);
    expect(noServer.code).toBe(2);
    expect(noServer.stdout).toContain('::error title=mailproof::set server-url and api-key (from a secret), or local: true');
    expect(noServer.outputs.passed).toBe('false');
  }, 600_000);
});
