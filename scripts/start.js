#!/usr/bin/env node
// `npm start`: install, build, make sure PostgreSQL and Redis answer, create the database,
// migrate, then run every app in one process (or one app with --app NAME). See README.md.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const tasks = require('./lib/tasks');

const DEFAULTS = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/mailproof', REDIS_URL: 'redis://127.0.0.1:6379' };

async function main() {
  const args = process.argv.slice(2);
  const appFlag = args.indexOf('--app');
  const app = appFlag === -1 ? undefined : args[appFlag + 1];
  const migrateOnly = args.includes('--migrate-only');

  tasks.loadDotEnv();
  tasks.ensureDependencies();
  tasks.build();
  const production = process.env.NODE_ENV === 'production';
  const databaseUrl = process.env.DATABASE_URL || (production ? undefined : DEFAULTS.DATABASE_URL);
  const redisUrl = process.env.REDIS_URL || (production ? undefined : DEFAULTS.REDIS_URL);
  if (databaseUrl && redisUrl) {
    await tasks.ensureServices(databaseUrl, redisUrl);
    await tasks.ensureDatabase(databaseUrl);
  }
  const dist = path.join(tasks.ROOT, 'dist');
  const entry = migrateOnly
    ? [path.join(dist, 'apps', 'cli', 'src', 'main.js'), 'migrate']
    : app
      ? [path.join(dist, 'launcher', 'main.js'), '--apps', app]
      : [path.join(dist, 'launcher', 'main.js')];
  const child = spawn(process.execPath, [...entry], { stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
