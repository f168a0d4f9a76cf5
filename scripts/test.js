#!/usr/bin/env node
// `npm test`: the whole suite. Installs what is missing, builds (integration tests start the
// built apps as real processes), checks PostgreSQL and Redis, then runs jest in two passes:
// engine + unit in parallel, integration + e2e one file at a time (they share the database).
// Extra arguments go to both jest passes (e.g. `npm test -- -t round-trip`).
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tasks = require('./lib/tasks');

async function main() {
  await tasks.prepareTestRun({ typecheck: true });

  const extra = process.argv.slice(2);
  const passes = [
    ['--selectProjects', 'engine', 'unit'],
    ['--selectProjects', 'integration', 'e2e', '--runInBand'],
  ];
  const totals = { passed: 0, failed: 0, skipped: 0 };
  let exitCode = 0;
  for (const [index, pass] of passes.entries()) {
    const report = path.join(os.tmpdir(), `mailproof-jest-${process.pid}-${index}.json`);
    const result = spawnSync(path.join(tasks.BIN, 'jest'), [...pass, '--forceExit', '--json', `--outputFile=${report}`, ...extra], {
      cwd: tasks.ROOT,
      stdio: 'inherit',
      env: process.env,
    });
    if (result.status !== 0) exitCode = 1;
    if (fs.existsSync(report)) {
      const summary = JSON.parse(fs.readFileSync(report, 'utf8'));
      totals.passed += summary.numPassedTests;
      totals.failed += summary.numFailedTests;
      totals.skipped += summary.numPendingTests + summary.numTodoTests;
      if (summary.numRuntimeErrorTestSuites > 0) exitCode = 1;
      fs.rmSync(report, { force: true });
    }
  }
  if (totals.passed === 0) exitCode = 1;
  // The plain closing line CI reads.
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(exitCode);
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
