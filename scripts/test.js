#!/usr/bin/env node
// `npm test`: the whole suite. Installs what is missing, builds (integration tests start the
// built apps as real processes), type-checks, lints (`npm run lint`), checks PostgreSQL and Redis, then runs jest in two passes:
// engine + unit in parallel, then integration + e2e on parallel workers, a database each.
// Extra arguments go to both jest passes (e.g. `npm test -- -t round-trip`).
//
// It exits 0 only when every test file both passes select ran to its end and no test failed. With
// MAILPROOF_TEST_BUDGET_SECONDS (CI sets it), the whole run, install and build included, is stopped at that
// budget; a file that had not ended by then is named and counted as not run, and the run fails.
'use strict';
const tasks = require('./lib/tasks');
const { runJestPass, describePass } = require('./lib/jest-run');

async function main() {
  const started = Date.now();
  const budgetSeconds = Number(process.env.MAILPROOF_TEST_BUDGET_SECONDS) || 0;
  const deadline = budgetSeconds > 0 ? started + budgetSeconds * 1000 : undefined;
  if (deadline) console.log(`[mailproof] time budget: ${budgetSeconds} s for install, build, type-check and both jest passes`);
  await tasks.prepareTestRun({ typecheck: true, lint: true, deadline });

  const extra = process.argv.slice(2);
  // The integration and e2e files on MAILPROOF_TEST_WORKERS parallel workers (2: this machine's cores), each
  // worker with a database of its own (test/utils/worker-database.js); 1 runs them one at a time.
  const workers = Math.max(1, Number(process.env.MAILPROOF_TEST_WORKERS) || 2);
  // MAILPROOF_TEST_SCOPE=runtime-surfaces (.ci/run's second Node version): every engine and unit file, and of the
  // integration and e2e files one per runtime surface (test/runtime-surfaces.json). Every file runs on the first Node.
  const surfacesOnly = process.env.MAILPROOF_TEST_SCOPE === 'runtime-surfaces';
  const surfaceFiles = surfacesOnly ? runtimeSurfaceFiles() : [];
  if (surfacesOnly)
    console.log(
      `[mailproof] scope: every engine and unit file, and ${surfaceFiles.length} integration/e2e files, one per runtime surface (test/runtime-surfaces.json)`,
    );
  const passes = [
    { name: 'engine + unit', args: ['--selectProjects', 'engine', 'unit'] },
    {
      name: 'integration + e2e',
      // Paths after the last flag: --selectProjects takes every word up to the next flag.
      args: ['--selectProjects', 'integration', 'e2e', workers === 1 ? '--runInBand' : `--maxWorkers=${workers}`, ...surfaceFiles],
    },
  ];
  const totals = { passed: 0, failed: 0, skipped: 0, files: 0, ran: 0 };
  const failures = [];
  const summary = [];
  let ok = true;
  for (const [index, { name, args }] of passes.entries()) {
    const pass = await runJestPass(args, String(index), extra, { deadline });
    ok &&= pass.ok;
    totals.passed += pass.passed;
    totals.failed += pass.failed;
    totals.skipped += pass.skipped;
    totals.files += pass.expected.length;
    totals.ran += pass.finished.length;
    failures.push(...pass.failures);
    summary.push(...describePass(name, pass));
  }
  if (totals.passed === 0) ok = false;
  // The plain closing lines CI reads (it keeps only a long log's tail).
  for (const line of summary) console.log(`[mailproof] ${line}`);
  for (const failure of failures) console.log(`failed: ${failure}`);
  console.log(
    `test files: ${totals.ran} of ${totals.files} ran${totals.ran < totals.files ? `; ${totals.files - totals.ran} did not, and count as failed` : ''}`,
  );
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(ok ? 0 : 1);
}

/** The files of test/runtime-surfaces.json, each checked to exist (a renamed file must not drop a surface silently). */
function runtimeSurfaceFiles() {
  const fs = require('node:fs');
  const path = require('node:path');
  const { surfaces } = JSON.parse(fs.readFileSync(path.join(tasks.ROOT, 'test', 'runtime-surfaces.json'), 'utf8'));
  const files = [...new Set(Object.values(surfaces))];
  const missing = files.filter((file) => !fs.existsSync(path.join(tasks.ROOT, file)));
  if (missing.length > 0) throw new Error(`test/runtime-surfaces.json names files that do not exist: ${missing.join(', ')}`);
  return files;
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
