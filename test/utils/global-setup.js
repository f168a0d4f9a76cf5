// Runs once before the integration and e2e projects: the test database exists and is migrated.
// The built CLI does the migration, so the suite also proves the migrate command works.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');
const tasks = require('../../scripts/lib/tasks');

module.exports = async function globalSetup() {
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/mailproof_test';
  await tasks.ensureDatabase(databaseUrl);
  const cli = path.join(tasks.ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');
  if (!existsSync(cli)) tasks.build({ quiet: true });
  tasks.run(process.execPath, [cli, 'migrate'], { quiet: true, env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
};
