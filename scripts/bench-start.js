#!/usr/bin/env node
// npm run bench:start: the first `npm start` a person gets, measured end to end in one run. A fresh clone of
// this checkout's HEAD (BENCH_START_REF: another commit or branch) in a temporary folder, an empty npm cache
// (cold: every package comes from the registry), a database of its own (DATABASE_URL's server, a new name,
// dropped afterwards), its own port and queue prefix; `npm start` runs under a deadline
// (BENCH_START_TIMEOUT_S, 900 s) and is stopped as soon as every app is ready. Prints the time split into
// install (npm's own timing: download and unpack, native builds), build, stores and database, SpamAssassin,
// migrations and the apps' start, the packages installed and node_modules' size, beside the target
// (<= 60 s with a cold cache), with the load average before and after. docs/benchmarks.md, "First start".
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tasks = require('./lib/tasks');
const { freePort } = require('./lib/bench-service');

const TARGET_SECONDS = 60;
const TIMEOUT_MS = Number(process.env.BENCH_START_TIMEOUT_S || 900) * 1000;
const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function git(args, cwd = tasks.ROOT) {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** Runs `npm start` in `dir`; resolves with each line's arrival time (s since the start) once the apps are ready. */
function runStart(dir, env) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const lines = [];
    // Its own process group, so the stop reaches npm, start.js, the launcher and a spamd it started.
    const child = spawn('npm', ['start'], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    // Stopped itself (Ctrl-C, timeout), the bench stops the start it began.
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.once(signal, () => {
        stop('SIGKILL');
        process.exit(1);
      });
    }
    const deadline = setTimeout(() => {
      stop('SIGKILL');
      reject(
        new Error(
          `npm start was not ready within ${TIMEOUT_MS / 1000} s; its last lines:\n${lines
            .slice(-15)
            .map((l) => l.text)
            .join('\n')}`,
        ),
      );
    }, TIMEOUT_MS);
    let ready = false;
    const take = (stream) => {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        pending += chunk;
        const parts = pending.split('\n');
        pending = parts.pop();
        for (const text of parts) {
          lines.push({ at: (Date.now() - started) / 1000, text });
          if (!ready && /"msg":"open http/.test(text)) {
            ready = true;
            clearTimeout(deadline);
            resolve({ lines, stop: () => stopAndWait(child, stop) });
          }
        }
      });
    };
    take(child.stdout);
    take(child.stderr);
    child.once('exit', (code, signal) => {
      if (ready) return;
      clearTimeout(deadline);
      reject(
        new Error(
          `npm start ended (${code ?? signal}) before the apps were ready; its last lines:\n${lines
            .slice(-15)
            .map((l) => l.text)
            .join('\n')}`,
        ),
      );
    });
  });
}

function stopAndWait(child, stop) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => stop('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    stop('SIGTERM');
  });
}

/** The time of the first line matching `pattern`, or undefined. */
function lineAt(lines, pattern) {
  return lines.find((line) => pattern.test(line.text));
}

/**
 * npm's own timers for the install (npm_config_timing): download + unpack, and each install script. The install is
 * two npm commands (`npm ci --ignore-scripts`, then `npm rebuild` of the packages allowed to run scripts:
 * scripts/lib/tasks.js), so every timing file of the cache is read and the scripts' time is the rebuild's.
 */
function npmTimings(cacheDir) {
  const logs = path.join(cacheDir, '_logs');
  if (!fs.existsSync(logs)) return null;
  const files = fs
    .readdirSync(logs)
    .filter((name) => name.endsWith('-timing.json'))
    .sort();
  if (files.length === 0) return null;
  const runs = files.map((file) => JSON.parse(fs.readFileSync(path.join(logs, file), 'utf8')).timers);
  const install = runs.find((timers) => timers['reify:unpack'] !== undefined) ?? runs[0];
  const scripts = runs
    .flatMap((timers) => Object.entries(timers))
    .filter(([name]) => name.startsWith('build:run:') && name.split(':').length > 3)
    .map(([name, ms]) => ({ name: name.split(':').slice(2).join(' '), ms }))
    .sort((a, b) => b.ms - a.ms);
  const scriptsMs = runs.reduce((sum, timers) => sum + (timers['command:rebuild'] ?? timers['reify:build'] ?? 0), 0);
  const totalMs = runs.reduce((sum, timers) => sum + (timers.npm ?? 0), 0);
  return { idealTreeMs: install.idealTree, unpackMs: install['reify:unpack'], scriptsMs, totalMs, scripts };
}

function installedPackages(dir) {
  const hidden = path.join(dir, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(hidden)) return null;
  return Object.keys(JSON.parse(fs.readFileSync(hidden, 'utf8')).packages).filter((key) => key.startsWith('node_modules/')).length;
}

function megabytes(dir) {
  const result = spawnSync('du', ['-sk', dir], { encoding: 'utf8' });
  return Math.round(Number(result.stdout.split('\t')[0]) / 1024);
}

async function main() {
  const ref = process.env.BENCH_START_REF || 'HEAD';
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mailproof-bench-start-'));
  const dir = path.join(base, 'mailproof');
  const cacheDir = path.join(base, 'npm-cache');
  const commit = git(['rev-parse', '--short', ref]);
  git(['clone', '--quiet', '--no-checkout', tasks.ROOT, dir], base);
  git(['checkout', '--quiet', commit], dir);
  tasks.loadDotEnv();
  const server = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/mailproof');
  const database = `mailproof_bench_start_${process.pid}`;
  server.pathname = `/${database}`;
  const port = await freePort();
  const env = {
    ...process.env,
    npm_config_cache: cacheDir,
    npm_config_timing: 'true',
    DATABASE_URL: server.toString(),
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    PORT: String(port),
    HOST: '127.0.0.1',
    QUEUE_PREFIX: `bench-start-${process.pid}`,
  };
  // A dotenv of this checkout must not leak into the clone's start; the clone writes its own .env.
  delete env.MAILPROOF_DATA_KEYS;
  const loadBefore = loadAverage();
  console.log(`[bench:start] ${commit} cloned into ${dir}; cold npm cache ${cacheDir}; Node ${process.version}; load ${loadBefore}`);
  let result;
  try {
    const { lines, stop } = await runStart(dir, env);
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`)
      .then((res) => res.status)
      .catch((error) => String(error.message));
    const loadAfter = loadAverage();
    await stop();
    result = { lines, ready, loadAfter };
  } finally {
    await dropDatabase(server).catch((error) => console.log(`[bench:start] could not drop ${database}: ${error.message}`));
  }
  report(result, { dir, cacheDir, loadBefore });
  if (!process.env.BENCH_START_KEEP) fs.rmSync(base, { recursive: true, force: true });
  else console.log(`[bench:start] kept ${base}`);
}

async function dropDatabase(url) {
  const { Client } = require(path.join(tasks.ROOT, 'node_modules', 'pg'));
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

function report({ lines, ready, loadAfter }, { dir, cacheDir, loadBefore }) {
  const at = (pattern) => lineAt(lines, pattern)?.at;
  // Earlier commits (BENCH_START_REF) said "building (tsc -> dist/)..." before their build and nothing after it.
  const installed = at(/^\[mailproof\] (installed npm dependencies|building)/);
  const stores = at(/^\[mailproof\] PostgreSQL and Redis answer/);
  const built = at(/^\[mailproof\] build: /) ?? stores;
  const spamd = at(/^\[mailproof\] SpamAssassin/);
  const launched = at(/^\[mailproof\] (starting|migrating)/);
  const migrationsLine = lineAt(lines, /"msg":"migrations: \d+ applied in \d+ ms"/);
  const migrationsMs = migrationsLine ? Number(/applied in (\d+) ms/.exec(migrationsLine.text)[1]) : undefined;
  const firstReady = lineAt(lines, /"context":"Launcher","msg":"[a-z-]+ ready"/);
  const allReady = at(/"msg":"open http/);
  const npm = npmTimings(cacheDir);
  const span = (from, to) => (from === undefined || to === undefined ? 'n/a' : `${(to - from).toFixed(1)} s`);
  const rows = [
    ['install (cold npm cache)', span(0, installed)],
    ['  npm: resolve the tree', npm ? `${(npm.idealTreeMs / 1000).toFixed(1)} s` : 'n/a'],
    ['  npm: download + unpack', npm ? `${(npm.unpackMs / 1000).toFixed(1)} s` : 'n/a'],
    [
      '  npm: install scripts',
      npm ? `${(npm.scriptsMs / 1000).toFixed(1)} s${npm.scripts[0] ? ` (${npm.scripts[0].name} ${(npm.scripts[0].ms / 1000).toFixed(1)} s)` : ''}` : 'n/a',
    ],
    ['build (transpile to dist/)', span(installed, built)],
    ['PostgreSQL, Redis, database', span(built, stores)],
    ['SpamAssassin (spamd)', span(stores, spamd ?? stores)],
    ['migrations', migrationsMs === undefined ? 'n/a' : `${(migrationsMs / 1000).toFixed(1)} s`],
    ['launcher start to first app ready', span(launched, firstReady?.at)],
    ['first app ready to all apps ready (API listening)', span(firstReady?.at, allReady)],
    ['total: npm start to every app ready', `${allReady.toFixed(1)} s (target <= ${TARGET_SECONDS} s: ${allReady <= TARGET_SECONDS ? 'met' : 'NOT met'})`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log('');
  for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
  console.log('');
  console.log(
    `  packages installed: ${installedPackages(dir)}; node_modules: ${megabytes(path.join(dir, 'node_modules'))} MB; npm cache: ${megabytes(cacheDir)} MB`,
  );
  console.log(`  GET /health/ready after the start: ${ready}`);
  console.log(`  load average before ${loadBefore}, after ${loadAfter} (${os.availableParallelism()} cores)`);
  console.log('  timeline:');
  for (const line of lines.filter((l) => l.text.startsWith('[mailproof]') || /"context":"Launcher"/.test(l.text))) {
    console.log(`  ${line.at.toFixed(1).padStart(7)} s  ${line.text.slice(0, 160)}`);
  }
  if (npm?.scripts.length) console.log(`  install scripts: ${npm.scripts.map((s) => `${s.name} ${(s.ms / 1000).toFixed(1)} s`).join(', ')}`);
}

main().catch((error) => {
  console.error(`[bench:start] ${error.message}`);
  process.exit(1);
});
