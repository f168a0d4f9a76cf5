// Set-up steps shared by `npm start`, `npm test`, `npm run build` and the mailproof command.
// Plain Node (no TypeScript, no dependencies) so they work on a fresh clone before `npm ci`.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** Thrown when a step is stopped at the deadline of the run it belongs to (MAILPROOF_TEST_BUDGET_SECONDS). */
class BudgetExceeded extends Error {}

/**
 * Runs a command to its end; `options.deadline` (ms since the epoch) stops it there with SIGKILL and throws
 * BudgetExceeded naming the command, so a hung build or install ends the run with a line that says so.
 */
function run(command, args, options = {}) {
  const timeout = options.deadline === undefined ? undefined : Math.max(1, options.deadline - Date.now());
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: options.quiet ? 'pipe' : 'inherit',
    env: { ...process.env, ...options.env },
    timeout,
    killSignal: 'SIGKILL',
  });
  if (result.error && result.error.code === 'ETIMEDOUT') {
    throw new BudgetExceeded(
      `STOPPED AT THE TIME BUDGET: ${path.basename(command)} ${args.join(' ')} was stopped after ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }
  if (result.status !== 0) {
    if (options.quiet) process.stderr.write(String(result.stdout ?? '') + String(result.stderr ?? ''));
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
  return result;
}

/** Loads .env (KEY=VALUE lines) without overriding variables already set. */
function loadDotEnv() {
  const file = path.join(ROOT, '.env');
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    const match = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && process.env[match[1]] === undefined) process.env[match[1]] = match[2].replace(/^(['"])(.*)\1$/, '$2');
  }
}

/**
 * Installs npm dependencies when node_modules is missing, older than the lockfile, or was installed for
 * another Node ABI (native modules, and which isolated-vm is installed, depend on the Node that ran npm:
 * docs/dependencies.md). The ABI is noted in node_modules/.mailproof-node-abi; a node_modules without
 * the note (installed by `npm ci` directly, as CI does) is taken as this Node's and noted.
 * `dev: false` (`npm start`, `npm run build`) is content with the dependencies the apps and the build need:
 * on a fresh clone it installs those alone (`npm ci --omit=dev`), while an install that has the
 * devDependencies keeps them. `dev: true` (tests, benchmarks) also installs the devDependencies when they are missing.
 * Returns whether it installed.
 */
function ensureDependencies(deadline, { dev = true } = {}) {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  const abiNote = path.join(ROOT, 'node_modules', '.mailproof-node-abi');
  const abi = process.versions.modules;
  const otherNode = fs.existsSync(abiNote) && fs.readFileSync(abiNote, 'utf8').trim() !== abi;
  const installed = fs.existsSync(marker);
  const withDev = installed && devDependenciesInstalled();
  const missingDev = installed && dev && !withDev;
  const stale = !installed || fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs + 1000 || otherNode || missingDev;
  if (!stale) {
    if (!fs.existsSync(abiNote)) fs.writeFileSync(abiNote, `${abi}\n`);
    return false;
  }
  // A checkout whose node_modules is a link to another checkout's (a git worktree sharing one install) must not
  // reinstall: `npm ci` would empty the shared directory under every other checkout that uses it.
  const modules = path.join(ROOT, 'node_modules');
  if (fs.existsSync(modules) && fs.lstatSync(modules).isSymbolicLink()) {
    console.log(`[mailproof] node_modules is a link to ${fs.realpathSync(modules)}: not reinstalling through it; install in that checkout`);
    return false;
  }
  if (otherNode) console.log(`[mailproof] node_modules was installed for another Node; reinstalling for Node ${process.version}`);
  const omitDev = !dev && !withDev;
  if (missingDev) console.log('[mailproof] node_modules has no devDependencies (installed by npm start); installing them too');
  console.log(`[mailproof] installing npm dependencies (npm ci${omitDev ? ' --omit=dev' : ''})...`);
  // Exactly the lockfile: a lockfile `npm ci` refuses is a defect to fix, not to route around with `npm install`.
  run('npm', ['ci', ...(omitDev ? ['--omit=dev'] : []), '--ignore-scripts', '--no-audit', '--no-fund'], { env: { PUPPETEER_SKIP_DOWNLOAD: '1' }, deadline });
  runInstallScripts(deadline);
  fs.writeFileSync(abiNote, `${abi}\n`);
  return true;
}

/**
 * Runs the install scripts `npm ci --ignore-scripts` skipped, for the packages package.json's `allowScripts`
 * lets run, except isolated-vm 5 on Node 22 and later: it is the Node 20 sandbox, cannot build against newer V8
 * (6.x, `isolated-vm-node22`, serves those), and its attempted source build cost ~41 s of a 64 s first start on a
 * quiet machine (docs/benchmarks.md, "First start"). npm removes an optional dependency whose build failed; this
 * removes it without the attempt, so node_modules holds the same packages as before.
 */
function runInstallScripts(deadline) {
  const { allowScripts = {} } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const modules = path.join(ROOT, 'node_modules');
  const newerThanNode20Sandbox = Number(process.versions.node.split('.')[0]) >= 22;
  if (newerThanNode20Sandbox) fs.rmSync(path.join(modules, 'isolated-vm'), { recursive: true, force: true });
  const allowed = Object.keys(allowScripts).filter((name) => allowScripts[name] === true);
  // isolated-vm-node22 is an alias of isolated-vm: the allowance by package name covers it.
  if (allowed.includes('isolated-vm')) allowed.push('isolated-vm-node22');
  const present = allowed.filter((name) => fs.existsSync(path.join(modules, name, 'package.json')));
  if (present.length > 0) run('npm', ['rebuild', ...present, '--no-audit', '--no-fund'], { env: { PUPPETEER_SKIP_DOWNLOAD: '1' }, deadline });
}

/** Whether every devDependency of package.json is in node_modules (an `npm ci --omit=dev` install has none). */
function devDependenciesInstalled() {
  const { devDependencies = {} } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return Object.keys(devDependencies).every((name) => fs.existsSync(path.join(ROOT, 'node_modules', name, 'package.json')));
}

/**
 * Transpiles apps, libs and the launcher to dist/, only the files changed since the last build
 * (scripts/lib/transpile-dist.js: TypeScript without the type-check, which `npm run typecheck` does).
 */
function build(options = {}) {
  run(process.execPath, [path.join(__dirname, 'transpile-dist.js')], options);
}

/** The same build in a child process without blocking this one, so `npm start` can start spamd meanwhile. */
function buildInBackground() {
  const { spawn } = require('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'transpile-dist.js')], { cwd: ROOT, stdio: 'inherit', env: process.env });
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`the build exited with ${code ?? signal}`))));
  });
}

function canConnect(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function endpoint(url, defaultPort) {
  const parsed = new URL(url);
  return { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || defaultPort) };
}

function dockerAvailable() {
  const result = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 });
  return result.status === 0;
}

const HOW_TO_START = {
  PostgreSQL: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start   (or: docker compose up -d postgres)',
  Redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no   (or: docker compose up -d redis)',
};

/**
 * Makes sure PostgreSQL and Redis answer. When one does not, starts both with Docker Compose if
 * a Docker engine is available; otherwise says exactly which is missing, where, and how to start it.
 */
async function ensureServices(databaseUrl, redisUrl) {
  const services = [
    { name: 'PostgreSQL', variable: 'DATABASE_URL', ...endpoint(databaseUrl, 5432) },
    { name: 'Redis', variable: 'REDIS_URL', ...endpoint(redisUrl, 6379) },
  ];
  let down = [];
  for (const service of services) if (!(await canConnect(service.host, service.port))) down.push(service);
  if (down.length === 0) return;
  if (dockerAvailable()) {
    console.log(`[mailproof] ${down.map((s) => s.name).join(' and ')} not reachable: docker compose up -d postgres redis`);
    run('docker', ['compose', 'up', '-d', 'postgres', 'redis']);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && down.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const still = [];
      for (const service of down) if (!(await canConnect(service.host, service.port))) still.push(service);
      down = still;
    }
    if (down.length === 0) return;
  }
  const lines = down.map((s) => `  - ${s.name} is not reachable at ${s.host}:${s.port} (${s.variable}). Start it with:\n      ${HOW_TO_START[s.name]}`);
  throw new Error(`Mailproof needs PostgreSQL and Redis.\n${lines.join('\n')}\nNo Docker engine is available to start them automatically.`);
}

/** Whether a spamd answers PING on host:port (SPAMC/1.5: "SPAMD/1.5 0 PONG"). */
function spamdAnswers(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect({ host, port });
    const done = (result) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => socket.write('PING SPAMC/1.5\r\n\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk;
      if (answer.includes('\n')) done(/^SPAMD\/[\d.]+ 0 PONG/.test(answer));
    });
    socket.once('end', () => done(/^SPAMD\/[\d.]+ 0 PONG/.test(answer)));
    socket.once('error', () => done(false));
  });
}

/** A free TCP port on 127.0.0.1. */
function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The spamd `npm start` gives the preview worker (docs/reports.md, "Checks in the preview worker"):
 * SPAMASSASSIN_HOST when set (`off`: no SpamAssassin check); else a spamd that answers on 127.0.0.1:783;
 * else Debian's spamd, when installed, started here with local rules only (`--local`: no network tests)
 * on a free loopback port and stopped with `npm start`. Returns { address, started, stop } or
 * { address: null, reason }.
 */
async function ensureSpamd({ env = process.env, spamdPath = '/usr/sbin/spamd', port = 783, startTimeoutMs = 60_000 } = {}) {
  if (env.SPAMASSASSIN_HOST === 'off') return { address: null, reason: 'SPAMASSASSIN_HOST=off' };
  if (env.SPAMASSASSIN_HOST) return { address: env.SPAMASSASSIN_HOST, started: false, stop: async () => {} };
  if (await spamdAnswers('127.0.0.1', port)) return { address: `127.0.0.1:${port}`, started: false, stop: async () => {} };
  if (!fs.existsSync(spamdPath))
    return { address: null, reason: `no spamd answers on 127.0.0.1:${port} and ${spamdPath} is not installed (apt-get install spamassassin spamc spamd)` };
  const { spawn } = require('node:child_process');
  const directory = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'mailproof-spamd-'));
  const ownPort = await freeLoopbackPort();
  const child = spawn(
    spamdPath,
    [
      '--local',
      '--listen-ip=127.0.0.1',
      `--port=${ownPort}`,
      '--max-children=2',
      '--min-children=1',
      '--nouser-config',
      '--syslog=stderr',
      `--pidfile=${path.join(directory, 'spamd.pid')}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.on('data', (chunk) => (log = (log + chunk).slice(-2000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(directory, { recursive: true, force: true });
  };
  const deadline = Date.now() + startTimeoutMs;
  while (!(await spamdAnswers('127.0.0.1', ownPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      return { address: null, reason: `${spamdPath} did not start: ${log.trim().split('\n').slice(-3).join(' | ')}` };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { address: `127.0.0.1:${ownPort}`, started: true, stop };
}

/** Creates the database named in the URL when it does not exist yet (connecting to the `postgres` database). */
async function ensureDatabase(databaseUrl) {
  const { Client } = require(path.join(ROOT, 'node_modules', 'pg'));
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      console.log(`[mailproof] creating database ${name}`);
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }
  } catch (error) {
    // Two processes may race to create it; the loser's "already exists" is fine.
    if (!/already exists/.test(String(error && error.message))) throw error;
  } finally {
    await client.end();
  }
}

/**
 * What every test command does before jest: test defaults for the stores, dependencies installed, a
 * fresh build (the suites start the built apps), optionally the type-check, the stores answering and
 * the test database created.
 */
async function prepareTestRun({ typecheck = false, lint = false, deadline } = {}) {
  loadDotEnv();
  process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/mailproof_test';
  process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
  process.env.PUPPETEER_SKIP_DOWNLOAD = '1';
  ensureDependencies(deadline);
  build({ deadline });
  // ts-jest only transpiles (isolatedModules), so the types of tests and code are checked here. CI's second
  // pass (another Node, the same code and TypeScript) sets MAILPROOF_SKIP_TYPECHECK=1.
  if (typecheck && process.env.MAILPROOF_SKIP_TYPECHECK !== '1') run(path.join(BIN, 'tsc'), ['--noEmit', '-p', 'tsconfig.spec.json'], { deadline });
  // `npm run lint` (ESLint and Prettier's check) is part of the suite: code that does not pass it fails the
  // run like a failing test. It does not depend on the Node version, so CI's second pass skips it too.
  if (lint && process.env.MAILPROOF_SKIP_TYPECHECK !== '1') {
    run(path.join(BIN, 'eslint'), ['.'], { deadline });
    run(path.join(BIN, 'prettier'), ['--check', '--log-level', 'warn', '.'], { deadline });
  }
  await ensureServices(process.env.DATABASE_URL, process.env.REDIS_URL);
  await ensureDatabase(process.env.DATABASE_URL);
}

module.exports = {
  ROOT,
  BIN,
  BudgetExceeded,
  run,
  loadDotEnv,
  ensureDependencies,
  build,
  buildInBackground,
  ensureServices,
  ensureDatabase,
  ensureSpamd,
  spamdAnswers,
  freeLoopbackPort,
  prepareTestRun,
};
