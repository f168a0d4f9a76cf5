// Runs one jest pass with a JSON report and reads it back: the counts `npm test` totals, each failed test
// named in a line of its own, and whether every test file the pass selects ran. CI keeps only the tail of a
// long log, so a failure printed far above would otherwise be lost; the closing lines name it again.
//
// A pass is `ok` only when no test failed and none was skipped or todo (issue 39: a test that did not run has
// not passed). A pass is `complete` only when jest's own report lists every file `jest --listTests` selects for the same
// arguments, each run to its end: a file that never started, or still ran when the pass was stopped at its
// time budget, is counted as not run, never as passed. A pass stopped at its deadline leaves no report (jest
// writes it at the end), so what ran then is read from the ledger its reporter appends (jest-file-ledger.js).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, BIN } = require('./tasks');

const ANSI = /\u001b\[[0-9;]*m/g;
/** After SIGTERM at the deadline, jest and what it started get this long before SIGKILL. */
const KILL_GRACE_MS = 10_000;

/** The first non-empty line of a jest failure message, without colors. */
function firstLine(text) {
  return (
    (text ?? '')
      .replace(ANSI, '')
      .split('\n')
      .find((line) => line.trim()) ?? ''
  )
    .trim()
    .slice(0, 300);
}

const relative = (file) => path.relative(ROOT, file);

/**
 * Each failed test (file › title: first message line), each skipped or todo test (one that did not run has
 * not passed: CI fails on it), or a file that failed to run at all.
 */
function failuresOf(report) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const where = relative(file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) lines.push(`${where} › ${test.fullName}: ${firstLine((test.failureMessages ?? []).join('\n'))}`);
    for (const test of (file.assertionResults ?? []).filter((result) => result.status === 'pending' || result.status === 'todo')) {
      lines.push(`${where} › ${test.fullName}: ${test.status === 'todo' ? 'todo' : 'skipped'}, so it did not run (a skipped test fails the run)`);
    }
    if (failed.length === 0 && file.status === 'failed') lines.push(`${where}: ${firstLine(file.message) || 'failed to run'}`);
  }
  return lines;
}

/** The test files jest selects for these arguments (`--listTests`), absolute paths, sorted. */
function listTestFiles(args) {
  const listed = spawnSync(path.join(BIN, 'jest'), [...args, '--listTests', '--json'], { cwd: ROOT, encoding: 'utf8', env: process.env, timeout: 120_000 });
  if (listed.status !== 0) throw new Error(`jest --listTests ${args.join(' ')} exited with ${listed.status ?? listed.signal}: ${firstLine(listed.stderr)}`);
  return JSON.parse(listed.stdout).sort();
}

function readLedger(file) {
  const ledger = { started: false, running: new Set(), done: new Map() };
  if (!fs.existsSync(file)) return ledger;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line);
    if (entry.event === 'run-start') ledger.started = true;
    else if (entry.event === 'file-start') ledger.running.add(entry.path);
    else if (entry.event === 'file-done') {
      ledger.running.delete(entry.path);
      ledger.done.set(entry.path, entry);
    }
  }
  return ledger;
}

/** Runs jest in a process group of its own; at `deadline` (ms since the epoch) the whole group is stopped. */
function runJest(argv, deadline, quiet) {
  return new Promise((resolve) => {
    const child = spawn(path.join(BIN, 'jest'), argv, { cwd: ROOT, stdio: quiet ? 'ignore' : 'inherit', env: process.env, detached: true });
    const group = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group has ended already.
      }
    };
    // `npm test` stopped from outside (CI's own limit, Ctrl-C) stops jest and the apps its tests started.
    const forward = (signal) => {
      group('SIGKILL');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGTERM', forward);
    process.once('SIGINT', forward);
    let stopped = false;
    let killer;
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => {
              stopped = true;
              group('SIGTERM');
              killer = setTimeout(() => group('SIGKILL'), KILL_GRACE_MS);
            },
            Math.max(0, deadline - Date.now()),
          );
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      process.removeListener('SIGTERM', forward);
      process.removeListener('SIGINT', forward);
      // Whatever the tests left in jest's group (apps they started) ends with the pass.
      group('SIGKILL');
      clearTimeout(killer);
      resolve({ status: code ?? 1, signal, stopped });
    });
  });
}

/**
 * Runs jest with these arguments, then the caller's extra ones (after jest's own flags: `--selectProjects`
 * takes every word up to the next flag, so a test path must not follow it), stopped at `deadline` when
 * one is given (`quiet`: jest's output is not shown). Answers jest's exit status, the counts, the failures, and the files that did not run.
 */
async function runJestPass(args, label, extra = [], { deadline, quiet = false } = {}) {
  const started = Date.now();
  const expected = listTestFiles([...args, ...extra]);
  const base = path.join(os.tmpdir(), `mailproof-jest-${process.pid}-${label}`);
  const reportFile = `${base}.json`;
  const ledgerFile = `${base}.ledger`;
  fs.rmSync(reportFile, { force: true });
  fs.rmSync(ledgerFile, { force: true });
  process.env.MAILPROOF_JEST_LEDGER = ledgerFile;
  const reporters = ['--reporters=default', `--reporters=${path.join(__dirname, 'jest-file-ledger.js')}`];
  const timeLeft = deadline === undefined || Date.now() < deadline;
  const run = timeLeft
    ? await runJest([...args, '--forceExit', '--json', `--outputFile=${reportFile}`, ...reporters, ...extra], deadline, quiet)
    : { status: 1, signal: null, stopped: true, notStarted: true };
  delete process.env.MAILPROOF_JEST_LEDGER;

  const pass = {
    status: run.status,
    signal: run.signal,
    stopped: run.stopped,
    /** Stopped before jest started: no time was left. */
    notStarted: run.notStarted === true,
    seconds: Math.round((Date.now() - started) / 1000),
    expected: expected.map(relative),
    passed: 0,
    failed: 0,
    skipped: 0,
    runtimeErrors: 0,
    failures: [],
    /** Files that ran to their end (passed or not). */
    finished: [],
    /** Files still running when the pass ended without finishing them. */
    unfinished: [],
    /** Files that never started. */
    neverStarted: [],
    /** Whether jest got past its global setup to the test files. */
    reachedTests: false,
    report: false,
  };
  const ledger = readLedger(ledgerFile);
  pass.reachedTests = ledger.started;
  const report = readReport(reportFile);
  let finished;
  if (report) {
    // The report is the authority when there is one: a file it does not list did not run.
    pass.report = true;
    pass.passed = report.numPassedTests;
    pass.failed = report.numFailedTests;
    pass.skipped = report.numPendingTests + report.numTodoTests;
    pass.runtimeErrors = report.numRuntimeErrorTestSuites;
    pass.failures = failuresOf(report);
    finished = new Set((report.testResults ?? []).map((file) => file.name));
  } else {
    // Stopped, or jest died: the ledger says which files ended and how.
    for (const [file, done] of ledger.done) {
      pass.passed += done.passed;
      pass.failed += done.failed;
      pass.skipped += done.skipped;
      if (done.outcome === 'error') pass.runtimeErrors += 1;
      if (done.outcome !== 'passed') pass.failures.push(`${relative(file)}: ${done.outcome === 'error' ? 'failed to run' : `${done.failed} failed (above)`}`);
      if (done.skipped > 0) pass.failures.push(`${relative(file)}: ${done.skipped} skipped or todo, so they did not run (a skipped test fails the run)`);
    }
    finished = new Set(ledger.done.keys());
  }
  for (const file of expected) {
    if (finished.has(file)) pass.finished.push(relative(file));
    else if (ledger.running.has(file)) pass.unfinished.push(relative(file));
    else pass.neverStarted.push(relative(file));
  }
  pass.complete = pass.unfinished.length === 0 && pass.neverStarted.length === 0;
  // A pass stopped at its deadline after its last file ended (in jest's teardown) has a non-zero status
  // and still ran everything; otherwise jest's own status counts too.
  const statusOk = pass.status === 0 || (pass.stopped && pass.complete);
  // A skipped, todo or focused-away test did not run: the pass is not ok (eslint-plugin-jest refuses them in
  // the source too; this catches what lint cannot see, such as a skip decided at run time).
  // Only a run narrowed by test name (`npm test -- -t round-trip`) skips tests on purpose; jest reports the others pending.
  const byName = [...args, ...extra].some((arg) => arg === '-t' || arg.startsWith('-t=') || arg.startsWith('--testNamePattern'));
  if (byName) pass.failures = pass.failures.filter((line) => !line.endsWith('(a skipped test fails the run)'));
  pass.ok = pass.complete && statusOk && pass.failed === 0 && (byName || pass.skipped === 0) && pass.runtimeErrors === 0 && pass.failures.length === 0;
  fs.rmSync(reportFile, { force: true });
  fs.rmSync(ledgerFile, { force: true });
  return pass;
}

/** jest's JSON report, or null when it wrote none (stopped, crashed) or only part of one. */
function readReport(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Names a list in a log line: all of it when short, else the first few and how many more. */
function few(files, most = 8) {
  return files.length <= most ? files.join(', ') : `${files.slice(0, most).join(', ')} and ${files.length - most} more`;
}

/** The log lines that say how a pass went, in words CI keeps (the last lines of the log). */
function describePass(name, pass) {
  const lines = [
    `${name}: ${pass.finished.length} of ${pass.expected.length} test files ran in ${pass.seconds} s (${pass.passed} tests passed, ${pass.failed} failed, ${pass.skipped} skipped)`,
  ];
  if (pass.notStarted) {
    lines.push(`STOPPED AT THE TIME BUDGET: ${name} did not start, no time was left`);
  } else if (pass.stopped) {
    const where = pass.reachedTests ? `${pass.finished.length} test files had finished` : "still in jest's global setup: no test file had started";
    lines.push(`STOPPED AT THE TIME BUDGET: ${name} was stopped after ${pass.seconds} s, ${where}`);
  } else if (!pass.report) {
    lines.push(
      `${name}: jest ended (${pass.signal ?? `exit ${pass.status}`}) without its report${pass.reachedTests ? '' : ', before any test file started (global setup)'}`,
    );
  }
  if (pass.unfinished.length > 0) lines.push(`${name}: still running, not counted: ${few(pass.unfinished)}`);
  if (pass.neverStarted.length > 0) lines.push(`${name}: never started, not counted: ${few(pass.neverStarted)}`);
  return lines;
}

module.exports = { runJestPass, describePass, listTestFiles, failuresOf };
