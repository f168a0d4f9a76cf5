#!/usr/bin/env node
// `npm run scale:check`: the scale harness (test/scale/, docs/testing.md). Builds (the harness starts
// the built apps as separate processes), checks PostgreSQL and Redis, then runs jest's scale project.
// Extra arguments go to jest (e.g. `npm run scale:check -- -t revoked`).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const tasks = require('./lib/tasks');

async function main() {
  await tasks.prepareTestRun();
  const result = spawnSync(path.join(tasks.BIN, 'jest'), ['--selectProjects', 'scale', '--runInBand', '--forceExit', ...process.argv.slice(2)], {
    cwd: tasks.ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  process.exit(result.status ?? 1);
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
