#!/usr/bin/env node
// `npm test`: the whole suite. Installs what is missing, builds (integration tests start the
// built apps as real processes), checks PostgreSQL and Redis, then runs jest in two passes:
// engine + unit in parallel, then integration + e2e on parallel workers, a database each.
// Extra arguments go to both jest passes (e.g. `npm test -- -t round-trip`).
'use strict';
const tasks = require('./lib/tasks');
const { runJestPass } = require('./lib/jest-run');

async function main() {
  await tasks.prepareTestRun({ typecheck: true });

  const extra = process.argv.slice(2);
  // The integration and e2e files on MAILPROOF_TEST_WORKERS parallel workers (2: this machine's cores), each
  // worker with a database of its own (test/utils/worker-database.js); 1 runs them one at a time.
  const workers = Math.max(1, Number(process.env.MAILPROOF_TEST_WORKERS) || 2);
  const passes = [
    ['--selectProjects', 'engine', 'unit'],
    ['--selectProjects', 'integration', 'e2e', workers === 1 ? '--runInBand' : `--maxWorkers=${workers}`],
  ];
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const failures = [];
  let exitCode = 0;
  for (const [index, args] of passes.entries()) {
    const pass = runJestPass(args, String(index), extra);
    if (pass.status !== 0 || pass.runtimeErrors > 0) exitCode = 1;
    totals.passed += pass.passed;
    totals.failed += pass.failed;
    totals.skipped += pass.skipped;
    failures.push(...pass.failures);
  }
  if (totals.passed === 0) exitCode = 1;
  for (const failure of failures) console.log(`failed: ${failure}`);
  // The plain closing line CI reads.
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(exitCode);
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
