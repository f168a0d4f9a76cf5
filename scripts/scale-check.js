#!/usr/bin/env node
// `npm run scale:check`: the scale harness (test/scale/, docs/testing.md). Builds (the harness starts
// the built apps as separate processes), checks PostgreSQL and Redis, then runs jest's scale project.
// Extra arguments go to jest (e.g. `npm run scale:check -- -t revoked`).
'use strict';
const tasks = require('./lib/tasks');
const { runJestPass } = require('./lib/jest-run');

async function main() {
  await tasks.prepareTestRun();
  const pass = runJestPass(['--selectProjects', 'scale', '--runInBand'], 'scale', process.argv.slice(2));
  for (const failure of pass.failures) console.log(`failed: ${failure}`);
  console.log(`scale tests: ${pass.passed} passed, ${pass.failed} failed, ${pass.skipped} skipped`);
  process.exit(pass.status !== 0 || pass.runtimeErrors > 0 || pass.passed === 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
