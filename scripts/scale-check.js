#!/usr/bin/env node
// `npm run scale:check`: the scale harness (test/scale/, docs/testing.md). Builds (the harness starts
// the built apps as separate processes), checks PostgreSQL and Redis, then runs jest's scale project.
// Extra arguments go to jest (e.g. `npm run scale:check -- -t revoked`). Exits 0 only when every scale file
// ran to its end and no test failed; MAILPROOF_TEST_BUDGET_SECONDS stops it at a budget, as in `npm test`.
'use strict';
const tasks = require('./lib/tasks');
const { runJestPass, describePass } = require('./lib/jest-run');

async function main() {
  const budgetSeconds = Number(process.env.MAILPROOF_TEST_BUDGET_SECONDS) || 0;
  const deadline = budgetSeconds > 0 ? Date.now() + budgetSeconds * 1000 : undefined;
  if (deadline) console.log(`[mailproof] time budget: ${budgetSeconds} s for build and the scale files`);
  await tasks.prepareTestRun({ deadline });
  const pass = await runJestPass(['--selectProjects', 'scale', '--runInBand'], 'scale', process.argv.slice(2), { deadline });
  for (const line of describePass('scale', pass)) console.log(`[mailproof] ${line}`);
  for (const failure of pass.failures) console.log(`failed: ${failure}`);
  console.log(`scale tests: ${pass.passed} passed, ${pass.failed} failed, ${pass.skipped} skipped`);
  process.exit(pass.ok && pass.passed > 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
