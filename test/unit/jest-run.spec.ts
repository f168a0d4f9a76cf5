import path from 'node:path';

// scripts/lib/jest-run.js is plain Node: `npm test` and `npm run scale:check` run through it, and CI's verdict
// is their exit status, so a pass must be `ok` only when every file it selects ran and passed.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const { runJestPass, describePass } = require('../../scripts/lib/jest-run') as {
  runJestPass(args: string[], label: string, extra?: string[], options?: { deadline?: number; quiet?: boolean }): Promise<JestPass>;
  describePass(name: string, pass: JestPass): string[];
};

interface JestPass {
  ok: boolean;
  complete: boolean;
  stopped: boolean;
  notStarted: boolean;
  reachedTests: boolean;
  passed: number;
  failed: number;
  skipped: number;
  runtimeErrors: number;
  failures: string[];
  expected: string[];
  finished: string[];
  unfinished: string[];
  neverStarted: string[];
}

const FIXTURE = 'test/fixtures/jest-run';
const ARGS = ['--config', path.join(__dirname, '../fixtures/jest-run/jest.config.js'), '--runInBand'];
const only = (...names: string[]) => ['--testPathPatterns', names.map((name) => `/${name}\\.check\\.js$`).join('|')];
const file = (name: string) => `${FIXTURE}/${name}.check.js`;

describe('jest-run: a pass is ok only when every selected file ran and passed', () => {
  afterEach(() => {
    delete process.env.JEST_RUN_FIXTURE_HANG_SETUP;
    delete process.env.JEST_RUN_FIXTURE_COMPONENT;
  });

  it('is ok when every file ran and passed, with the counts from jest report', async () => {
    const pass = await runJestPass(ARGS, 'spec-ok', only('passes', 'also-passes'), { quiet: true });
    expect(pass).toMatchObject({ ok: true, complete: true, stopped: false, passed: 2, failed: 0, skipped: 0, failures: [], unfinished: [], neverStarted: [] });
    expect(pass.finished.sort()).toEqual([file('also-passes'), file('passes')]);
    expect(describePass('fixture', pass)[0]).toMatch(/^fixture: 2 of 2 test files ran in \d+ s \(2 tests passed, 0 failed, 0 skipped\)$/);
  }, 60_000);

  it('is not ok when a test is skipped, todo, or skipped by a decision at run time, and names each', async () => {
    const pass = await runJestPass(ARGS, 'spec-skipped', only('passes', 'skips', 'todo', 'skips-at-run-time'), { quiet: true });
    // jest itself exits 0 here: only the runner's count stops the pass.
    expect(pass).toMatchObject({ ok: false, complete: true, passed: 3, failed: 0, skipped: 3 });
    expect(pass.failures.sort()).toEqual([
      `${file('skips-at-run-time')} › needs a component: skipped, so it did not run (a skipped test fails the run)`,
      `${file('skips')} › is skipped: skipped, so it did not run (a skipped test fails the run)`,
      `${file('todo')} › is still to write: todo, so it did not run (a skipped test fails the run)`,
    ]);
  }, 60_000);

  it('a run narrowed by test name (-t) skips the other tests on purpose: still ok', async () => {
    const pass = await runJestPass(ARGS, 'spec-by-name', [...only('passes', 'also-passes'), '-t', 'adds'], { quiet: true });
    expect(pass).toMatchObject({ ok: true, passed: 1, skipped: 1, failures: [] });
  }, 60_000);

  it('with the component there, the same file runs its test and the pass is ok', async () => {
    process.env.JEST_RUN_FIXTURE_COMPONENT = '1';
    const pass = await runJestPass(ARGS, 'spec-component', only('skips-at-run-time'), { quiet: true });
    expect(pass).toMatchObject({ ok: true, passed: 1, skipped: 0, failures: [] });
  }, 60_000);

  it('is not ok when a test fails or a file fails to load, and names both', async () => {
    const pass = await runJestPass(ARGS, 'spec-failing', only('passes', 'fails', 'fails-to-load'), { quiet: true });
    expect(pass).toMatchObject({ ok: false, complete: true, passed: 1, failed: 1, runtimeErrors: 1 });
    expect(pass.failures).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^test\/fixtures\/jest-run\/fails\.check\.js › compares: /),
        expect.stringMatching(/^test\/fixtures\/jest-run\/fails-to-load\.check\.js: /),
      ]),
    );
  }, 60_000);

  it('stopped at its deadline, counts the file that never ended as not run and the pass as failed', async () => {
    // Whenever the stop comes, the file that never ends has not finished: the pass cannot be ok.
    const pass = await runJestPass(ARGS, 'spec-stopped', only('passes', 'never-ends'), { deadline: Date.now() + 5_000, quiet: true });
    expect(pass).toMatchObject({ ok: false, complete: false, stopped: true });
    expect(pass.finished).not.toContain(file('never-ends'));
    expect([...pass.unfinished, ...pass.neverStarted]).toContain(file('never-ends'));
    const lines = describePass('fixture', pass).join('\n');
    expect(lines).toMatch(/STOPPED AT THE TIME BUDGET: fixture was stopped after \d+ s/);
    expect(lines).toContain(file('never-ends'));
  }, 60_000);

  it('stopped in a global setup that never ends, counts every file as never started and says where it hung', async () => {
    process.env.JEST_RUN_FIXTURE_HANG_SETUP = '1';
    const pass = await runJestPass(ARGS, 'spec-setup', only('passes', 'also-passes'), { deadline: Date.now() + 5_000, quiet: true });
    expect(pass).toMatchObject({ ok: false, stopped: true, reachedTests: false, finished: [], unfinished: [], passed: 0 });
    expect(pass.neverStarted.sort()).toEqual([file('also-passes'), file('passes')]);
    expect(describePass('fixture', pass).join('\n')).toMatch(/STOPPED AT THE TIME BUDGET: .*still in jest's global setup: no test file had started/);
  }, 60_000);

  it('with no time left does not start jest, and counts every file as not run', async () => {
    const pass = await runJestPass(ARGS, 'spec-late', only('passes'), { deadline: Date.now() - 1, quiet: true });
    expect(pass).toMatchObject({ ok: false, notStarted: true, finished: [], neverStarted: [file('passes')] });
    expect(describePass('fixture', pass).join('\n')).toMatch(/STOPPED AT THE TIME BUDGET: fixture did not start, no time was left/);
  });
});
