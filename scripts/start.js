#!/usr/bin/env node
// `npm start`: install, build, make sure PostgreSQL and Redis answer, create the database, find or
// start a spamd for the SpamAssassin check, migrate, then run every app in one process (or one app
// with --app NAME). See README.md.
// In a terminal it prints one short line per step and per log entry; elsewhere the apps' JSON logs
// pass through untouched (scripts/lib/log-format.js).
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const tasks = require('./lib/tasks');
const { ensureDevelopmentDataKey } = require('./lib/data-keys');
const { chooseLogFormat, prettify } = require('./lib/log-format');

const DEFAULTS = { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/mailproof', REDIS_URL: 'redis://127.0.0.1:6379' };

async function main() {
  const args = process.argv.slice(2);
  const appFlag = args.indexOf('--app');
  const app = appFlag === -1 ? undefined : args[appFlag + 1];
  const migrateOnly = args.includes('--migrate-only');

  tasks.loadDotEnv();
  const dataKey = ensureDevelopmentDataKey(process.env, path.join(tasks.ROOT, '.env'));
  if (dataKey?.error) throw new Error(dataKey.error);
  if (dataKey) console.log(`[mailproof] ${dataKey.message}`);
  // The apps' dependencies only: tests, lint, benchmarks and the peer comparison need the devDependencies,
  // which `npm test` installs when they are missing (docs/operations.md, "Starting").
  const installStarted = Date.now();
  if (tasks.ensureDependencies(undefined, { dev: false })) console.log(`[mailproof] installed npm dependencies in ${seconds(installStarted)} s`);
  const production = process.env.NODE_ENV === 'production';
  // The SpamAssassin check by default where SpamAssassin exists (docs/reports.md); never in production,
  // where SPAMASSASSIN_HOST is set or not on purpose. Debian's spamd takes seconds to load its rules, so it
  // starts while the build runs; a step that fails after it stops it again.
  const spamdStarting = !migrateOnly && !production ? tasks.ensureSpamd() : Promise.resolve(null);
  const databaseUrl = process.env.DATABASE_URL || (production ? undefined : DEFAULTS.DATABASE_URL);
  const redisUrl = process.env.REDIS_URL || (production ? undefined : DEFAULTS.REDIS_URL);
  try {
    await tasks.buildInBackground();
    if (databaseUrl && redisUrl) {
      await tasks.ensureServices(databaseUrl, redisUrl);
      await tasks.ensureDatabase(databaseUrl);
      console.log(`[mailproof] PostgreSQL and Redis answer; database ${describeDatabase(databaseUrl)} is there`);
    }
  } catch (error) {
    await (await spamdStarting)?.stop?.();
    throw error;
  }
  const spamd = await spamdStarting;
  if (spamd) {
    if (spamd.address) {
      process.env.SPAMASSASSIN_HOST = spamd.address;
      console.log(`[mailproof] SpamAssassin: ${spamd.started ? "started Debian's spamd (local rules) on" : 'spamd at'} ${spamd.address}`);
    } else {
      console.log(`[mailproof] SpamAssassin check off: ${spamd.reason}`);
    }
  }
  if (process.env.SPAMASSASSIN_HOST === 'off') delete process.env.SPAMASSASSIN_HOST;
  const dist = path.join(tasks.ROOT, 'dist');
  const entry = migrateOnly
    ? [path.join(dist, 'apps', 'cli', 'src', 'main.js'), 'migrate']
    : app
      ? [path.join(dist, 'launcher', 'main.js'), '--apps', app]
      : [path.join(dist, 'launcher', 'main.js')];
  const pretty = chooseLogFormat({ isTTY: Boolean(process.stdout.isTTY), env: process.env }) === 'pretty';
  console.log(migrateOnly ? '[mailproof] migrating...' : `[mailproof] starting ${app ?? 'every app in one process'}...`);
  const child = spawn(process.execPath, [...entry], { stdio: ['inherit', pretty ? 'pipe' : 'inherit', 'inherit'], env: process.env });
  if (pretty) prettify(child.stdout, process.stdout, { color: true });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  // 'close', not 'exit': the last log lines may still be in the pipe when the launcher exits.
  child.on('close', (code, signal) => {
    const stopped = spamd?.stop ? spamd.stop() : Promise.resolve();
    stopped.finally(() => process.exit(code ?? (signal ? 1 : 0)));
  });
}

function seconds(since) {
  return ((Date.now() - since) / 1000).toFixed(1);
}

/** The database's name and where it lives, without the password. */
function describeDatabase(databaseUrl) {
  const url = new URL(databaseUrl);
  return `${decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres'} on ${url.host}`;
}

main().catch((error) => {
  console.error(`[mailproof] ${error.message}`);
  process.exit(1);
});
