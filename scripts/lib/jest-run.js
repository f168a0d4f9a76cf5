// Runs one jest pass with a JSON report and reads it back: the counts `npm test` totals, and each failed
// test named in a line of its own. CI keeps only the tail of a long log, so a failure printed far above
// would otherwise be lost; the closing lines name it again.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, BIN } = require('./tasks');

const ANSI = /\u001b\[[0-9;]*m/g;

/** The first non-empty line of a jest failure message, without colours. */
function firstLine(text) {
  return ((text ?? '').replace(ANSI, '').split('\n').find((line) => line.trim()) ?? '').trim().slice(0, 300);
}

/** Each failed test (file › title: first message line), or a file that failed to run at all. */
function failuresOf(report) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(ROOT, file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) lines.push(`${where} › ${test.fullName}: ${firstLine((test.failureMessages ?? []).join('\n'))}`);
    if (failed.length === 0 && file.status === 'failed') lines.push(`${where}: ${firstLine(file.message) || 'failed to run'}`);
  }
  return lines;
}

/**
 * Runs jest with these arguments, then the caller's extra ones (after jest's own flags: `--selectProjects`
 * takes every word up to the next flag, so a test path must not follow it). Answers jest's exit status,
 * the counts and the failures.
 */
function runJestPass(args, label, extra = []) {
  const reportFile = path.join(os.tmpdir(), `mailproof-jest-${process.pid}-${label}.json`);
  const result = spawnSync(path.join(BIN, 'jest'), [...args, '--forceExit', '--json', `--outputFile=${reportFile}`, ...extra], { cwd: ROOT, stdio: 'inherit', env: process.env });
  const pass = { status: result.status ?? 1, passed: 0, failed: 0, skipped: 0, runtimeErrors: 0, failures: [] };
  if (fs.existsSync(reportFile)) {
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
    pass.passed = report.numPassedTests;
    pass.failed = report.numFailedTests;
    pass.skipped = report.numPendingTests + report.numTodoTests;
    pass.runtimeErrors = report.numRuntimeErrorTestSuites;
    pass.failures = failuresOf(report);
    fs.rmSync(reportFile, { force: true });
  }
  return pass;
}

module.exports = { runJestPass, failuresOf };
