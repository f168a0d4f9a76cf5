// Runs once before the integration and e2e projects: each worker's test database exists and is migrated
// (test/utils/worker-database.js). The built CLI does the migrations, so the suite also proves the migrate
// command works.
'use strict';
const { execFile } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const tasks = require('../../scripts/lib/tasks');
const { databaseUrlForWorker } = require('./worker-database');

const run = promisify(execFile);

module.exports = async function globalSetup(globalConfig) {
  const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/mailproof_test';
  const workers = globalConfig.runInBand ? 1 : Math.max(1, globalConfig.maxWorkers || 1);
  const cli = path.join(tasks.ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');
  if (!existsSync(cli)) tasks.build({ quiet: true });
  const urls = Array.from({ length: workers }, (_, index) => databaseUrlForWorker(baseUrl, String(index + 1)));
  await Promise.all(
    urls.map(async (databaseUrl) => {
      await tasks.ensureDatabase(databaseUrl);
      await run(process.execPath, [cli, 'migrate'], { cwd: tasks.ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
    }),
  );
};
