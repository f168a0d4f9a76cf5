// Shared by the end-to-end benchmarks (bench:api, bench:gate): the email they send, a free port, percentiles,
// readiness, and the engine-only figure they are compared with.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const tasks = require('./tasks');

/**
 * The corpus's html folder: BENCH_CORPUS_DIR, else the first `shared/corpus/html` beside the checkout or beside
 * one of its parents (../shared from /work/main, ../../shared from a worktree at /work/wt/<name>); null when
 * there is none.
 */
function corpusHtmlDir() {
  if (process.env.BENCH_CORPUS_DIR) return fs.existsSync(process.env.BENCH_CORPUS_DIR) ? process.env.BENCH_CORPUS_DIR : null;
  for (let dir = path.dirname(tasks.ROOT); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'corpus', 'html');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

function medianEmail() {
  const corpus = corpusHtmlDir();
  if (corpus) {
    const files = fs
      .readdirSync(corpus)
      .filter((f) => f.endsWith('.html'))
      .map((f) => ({ f, size: fs.statSync(path.join(corpus, f)).size }))
      .sort((a, b) => a.size - b.size);
    const median = files[Math.floor(files.length / 2)];
    return { name: `corpus/html/${median.f}`, html: fs.readFileSync(path.join(corpus, median.f), 'utf8') };
  }
  const fixture = path.join(tasks.ROOT, 'test', 'fixtures', 'cli', 'clean.html');
  return { name: 'test/fixtures/cli/clean.html (corpus absent)', html: fs.readFileSync(fixture, 'utf8') };
}

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Waits until the API answers ready with a live worker on each of `queues`. */
async function waitReady(url, queues = ['preview'], deadlineMs = Number(process.env.BENCH_READY_MS ?? 180_000)) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/health/ready`);
      const body = await res.json();
      if (queues.every((queue) => body.details?.[`queue:${queue}`]?.status === 'up')) {
        // The worker starts its compile processes in the background once it is ready (~2.3 s of CPU
        // each, two of them): measured from here, that one-time start-up would land in the first window.
        await new Promise((r) => setTimeout(r, Number(process.env.BENCH_SETTLE_MS ?? 10_000)));
        return;
      }
    } catch {
      // not listening yet: try again
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`API and worker did not become ready (queues ${queues.join(', ')})`);
}

/**
 * Engine-only with one thread per core (os.availableParallelism()), all at once: each thread as
 * engineOnlyWindows, and the machine's ceiling is the sum of the threads' medians. `perThread` holds
 * each thread's sorted windows.
 */
async function engineOnlyAllCores(html, count, milliseconds, threads = require('node:os').availableParallelism()) {
  const perThread = await Promise.all(Array.from({ length: threads }, () => engineOnlyWindows(html, count, milliseconds)));
  return { threads, total: perThread.reduce((sum, windows) => sum + windows[Math.floor(windows.length / 2)], 0), perThread };
}

/** Emails per second of the engine alone, per window (sorted), in a worker thread like the analysis pool's; with `cpuMsPerEmail`. */
function engineOnlyWindows(html, count, milliseconds) {
  const { Worker } = require('node:worker_threads');
  const { ANALYSIS_THREAD_LIMITS } = require(path.join(tasks.ROOT, 'dist', 'apps', 'worker-preview', 'src', 'analysis', 'analysis-thread-limits.js'));
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    require('reflect-metadata');
    const { analyzeEmail } = require(workerData.engine);
    const { compileEmail, disposeCompilers } = require(workerData.sandbox);
    // This thread's own CPU time (Linux): on a loaded machine the wall time of a window includes waiting for a core.
    const threadCpuMs = () => {
      try {
        const stat = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) * 10;
      } catch {
        return NaN;
      }
    };
    // The whole process's CPU time: this thread plus V8's helper threads (concurrent GC, optimizing compiler) that
    // work for it, as the service's figure counts them for its analysis threads; the benchmark's main thread idles.
    const processCpuMs = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    const window = async (milliseconds) => {
      const started = Date.now();
      const cpuStarted = threadCpuMs();
      const processStarted = processCpuMs();
      let runs = 0;
      while (Date.now() - started < milliseconds) {
        const compiled = await compileEmail(workerData.html, 'html');
        JSON.stringify(analyzeEmail(compiled.html, { format: 'html' }));
        runs++;
      }
      return {
        rate: runs / ((Date.now() - started) / 1000),
        cpuMs: (threadCpuMs() - cpuStarted) / runs,
        processCpuMs: (processCpuMs() - processStarted) / runs,
      };
    };
    (async () => {
      await window(workerData.warmupMs);
      const windows = [];
      for (let i = 0; i < workerData.count; i++) windows.push(await window(workerData.milliseconds));
      await disposeCompilers();
      const sorted = (values) => values.sort((a, b) => a - b);
      parentPort.postMessage({
        rates: sorted(windows.map((w) => w.rate)),
        cpuMs: sorted(windows.map((w) => w.cpuMs)),
        processCpuMs: sorted(windows.map((w) => w.processCpuMs)),
      });
    })();`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      resourceLimits: { ...ANALYSIS_THREAD_LIMITS },
      workerData: {
        html,
        count,
        milliseconds,
        // As long as the service's warm-up (BENCH_WARMUP_SECONDS), so that both sides are measured equally warm.
        warmupMs: Math.max(2000, Number(process.env.BENCH_WARMUP_SECONDS || 0) * 1000),
        engine: path.join(tasks.ROOT, 'dist', 'libs', 'engine', 'src'),
        sandbox: path.join(tasks.ROOT, 'dist', 'libs', 'sandbox', 'src'),
      },
    });
    worker.once('message', ({ rates, cpuMs, processCpuMs }) => {
      // The windows' rates, sorted; `cpuMsPerEmail`: the thread's CPU time per email (median window), which
      // load on the machine inflates far less than the rate (NaN where /proc is missing); `processCpuMsPerEmail`:
      // the same with V8's helper threads (meaningful for one engine thread at a time only: the process is shared).
      const median = (values) => values[Math.floor(values.length / 2)];
      resolve(Object.assign(rates, { cpuMsPerEmail: median(cpuMs), processCpuMsPerEmail: median(processCpuMs) }));
      worker.terminate();
    });
    worker.once('error', reject);
  });
}

/**
 * Starts worker-preview and the API (built dist) as separate processes on `port`; `stop()` sends SIGTERM
 * (so --cpu-prof can write its profile) and SIGKILL to any that lingers after 5 s.
 */
function startServices(env, port, nodeOptions = []) {
  const { spawn } = require('node:child_process');
  // BENCH_DIST: another checkout's build, for an A/B comparison with the same benchmark code.
  const dist = path.join(process.env.BENCH_DIST || path.join(tasks.ROOT, 'dist'), 'apps');
  const worker = spawn(process.execPath, [...nodeOptions, path.join(dist, 'worker-preview', 'src', 'main.js')], { env, stdio: 'ignore' });
  const api = spawn(process.execPath, [...nodeOptions, path.join(dist, 'api', 'src', 'main.js')], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));
  const pids = () => [worker.pid, api.pid];
  const stop = async () => {
    worker.kill('SIGTERM');
    api.kill('SIGTERM');
    const killer = setTimeout(() => {
      worker.kill('SIGKILL');
      api.kill('SIGKILL');
    }, 5000);
    await Promise.all([exited(worker), exited(api)]);
    clearTimeout(killer);
  };
  return { stop, pids };
}

/**
 * Installs and builds what is missing, and returns the benchmark's environment over its own database
 * (mailproof_bench, created and migrated) and a queue prefix of its own, plus `settings`.
 */
async function prepareBenchmark(name, settings) {
  tasks.ensureDependencies();
  if (!process.env.BENCH_NO_BUILD) tasks.build({ quiet: true });
  const env = {
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/mailproof_bench',
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: `${name}-${process.pid}`,
    MIGRATE_ON_START: 'true',
    ...settings,
  };
  await tasks.ensureServices(env.DATABASE_URL, env.REDIS_URL);
  await tasks.ensureDatabase(env.DATABASE_URL);
  return env;
}

/**
 * CPU time (user + system, ms) used so far by the service: the given processes (the API and the worker,
 * all their threads) and every PostgreSQL and Redis server process. Read from /proc (Linux); null where
 * it cannot be. The difference over a run, divided by the requests served, is what one request costs
 * the whole service, whatever else the machine is doing.
 */
function serviceCpuMs(pids) {
  const fs = require('node:fs');
  const ticksToMs = 10; // USER_HZ is 100 on Linux
  let total = 0;
  try {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat;
      try {
        stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!pids.includes(Number(entry)) && comm !== 'postgres' && comm !== 'redis-server') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * ticksToMs;
    }
    return total;
  } catch {
    return null;
  }
}

/** A pro account (through the CLI) named `<name>-<pid>`; its API key. */
function createProKey(env, name) {
  const result = require('node:child_process').spawnSync(
    process.execPath,
    [path.join(tasks.ROOT, 'bin', 'mailproof.js'), 'account', 'create', '--name', `${name}-${process.pid}`, '--plan', 'pro'],
    { env, encoding: 'utf8' },
  );
  const key = /mp_live_[0-9A-Za-z]+/.exec(result.stdout ?? '')?.[0];
  if (!key) throw new Error(`could not create a pro account: ${result.stderr || result.stdout}`);
  return key;
}

/** Signs in through the form, as a browser does, and returns the session cookie. */
async function signIn(url, key) {
  const form = await fetch(`${url}/app/sign-in`);
  const formCookie = form.headers
    .getSetCookie()
    .find((c) => c.startsWith('mp_sign_in='))
    ?.split(';')[0];
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  const res = await fetch(`${url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: formCookie },
    body: new URLSearchParams({ _csrf: token, key }).toString(),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('mp_session='));
  if (res.status !== 303 || !session) throw new Error(`sign-in answered ${res.status}`);
  return session.split(';')[0];
}

/** utime + stime (ms) of /proc/<path>/stat, or 0 when it is gone. */
/** When a process or thread started, in clock ticks after boot (field 22 of /proc/<path>/stat); NaN when unreadable. */
function statStartTicks(path) {
  try {
    const stat = require('node:fs').readFileSync(`/proc/${path}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return NaN;
  }
}

function statCpuMs(path) {
  try {
    const stat = require('node:fs').readFileSync(`/proc/${path}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/**
 * Where the service's CPU goes, per part: the API process; worker-preview's main thread (event loop:
 * BullMQ, PostgreSQL, the checks) and its other threads (analysis threads, V8's GC helpers, libuv; `workerHelpers`
 * is V8's platform threads alone, told apart by starting with the process);
 * the PostgreSQL backends connected to the benchmark's database (not the server's shared background
 * processes); the Redis server of REDIS_URL (shared with whatever else uses that server: `private`
 * says whether the benchmark started it for itself); and this process, the load generator.
 * `snapshot()` reads them all (Linux /proc; null elsewhere); `diff()` subtracts two snapshots.
 */
async function createCpuMeter(env, { api, worker }) {
  const fs = require('node:fs');
  if (!fs.existsSync('/proc/self/stat')) return null;
  const { Client } = require(path.join(tasks.ROOT, 'node_modules', 'pg'));
  const pg = new Client({ connectionString: env.DATABASE_URL });
  await pg.connect();
  const redisPort = String(new URL(env.REDIS_URL).port || 6379);
  const redisPids = () =>
    fs.readdirSync('/proc').filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        return /redis-server$/.test(cmdline[0].split(' ')[0]) && cmdline.join(' ').includes(`:${redisPort}`);
      } catch {
        return false;
      }
    });
  const threadsOf = (pid) => {
    try {
      return fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      return [];
    }
  };
  const Redis = require(path.join(tasks.ROOT, 'node_modules', 'ioredis'));
  const redis = new Redis(env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  /** Commands the Redis server has run, by command (INFO commandstats: the whole server, every database). */
  const redisCommands = async () =>
    Object.fromEntries(
      [...(await redis.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map(([, command, calls]) => [command, Number(calls)]),
    );
  const snapshot = async () => {
    const { rows } = await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    const [{ transactions }] = (await pg.query('SELECT xact_commit + xact_rollback AS transactions FROM pg_stat_database WHERE datname = current_database()'))
      .rows;
    const commands = await redisCommands();
    const backends = Object.fromEntries(rows.map(({ pid }) => [pid, statCpuMs(String(pid))]));
    const workerThreads = threadsOf(worker()).filter((tid) => tid !== String(worker()));
    // V8's platform threads (concurrent and parallel GC, the optimizing compiler) are the first the process starts:
    // Node's 4 task runners (its default --v8-pool-size) and their delayed-task thread, before any module loads;
    // libuv's pool and the analysis threads start later (measured under load: 17 ticks after the main thread, then
    // 43-45, then 339). A start time alone cannot tell them apart under load (a platform thread started 4 ticks
    // after another), the order can.
    const helpers = workerThreads
      .map((tid) => ({ tid, start: statStartTicks(`${worker()}/task/${tid}`) }))
      .sort((a, b) => a.start - b.start || Number(a.tid) - Number(b.tid))
      .slice(0, 5)
      .map(({ tid }) => tid);
    const self = process.cpuUsage();
    return {
      api: statCpuMs(String(api())),
      workerMain: statCpuMs(`${worker()}/task/${worker()}`),
      workerThreads: workerThreads.reduce((sum, tid) => sum + statCpuMs(`${worker()}/task/${tid}`), 0),
      workerHelpers: helpers.reduce((sum, tid) => sum + statCpuMs(`${worker()}/task/${tid}`), 0),
      backends,
      redis: redisPids().reduce((sum, pid) => sum + statCpuMs(pid), 0),
      loadGenerator: (self.user + self.system) / 1000,
      transactions: Number(transactions),
      commands,
      at: Date.now(),
    };
  };
  const diff = (before, after) => {
    // A backend that connected during the run spent all its CPU in it; one that left took its figure along.
    const postgres = Object.entries(after.backends).reduce((sum, [pid, ms]) => sum + ms - (before.backends[pid] ?? 0), 0);
    const parts = {
      api: after.api - before.api,
      workerMain: after.workerMain - before.workerMain,
      workerThreads: after.workerThreads - before.workerThreads,
      postgres,
      redis: after.redis - before.redis,
      loadGenerator: after.loadGenerator - before.loadGenerator,
    };
    // The meter's own reads (a few per snapshot) are left in: they are nothing beside hundreds of previews.
    const commands = Object.entries(after.commands)
      .map(([command, calls]) => [command, calls - (before.commands[command] ?? 0)])
      .filter(([, calls]) => calls > 0)
      .sort((a, b) => b[1] - a[1]);
    return {
      ...parts,
      total: Object.values(parts).reduce((sum, ms) => sum + ms, 0),
      transactions: after.transactions - before.transactions,
      // Part of workerThreads: V8's helper threads alone (the rest is the analysis threads and libuv's pool).
      workerHelpers: after.workerHelpers - before.workerHelpers,
      seconds: (after.at - before.at) / 1000,
      redisCommands: commands.reduce((sum, [, calls]) => sum + calls, 0),
      topCommands: commands.slice(0, 6),
    };
  };
  /** The database's clock, to count the previews created from then on. */
  const now = async () => (await pg.query('SELECT clock_timestamp() AS now')).rows[0].now;
  /** How many previews were created since `since`, once none of them is still queued (at most 120 s). */
  const previewsSince = async (since) => {
    const until = Date.now() + 120_000;
    for (;;) {
      const { rows } = await pg.query(
        "SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'queued')::int AS queued FROM previews WHERE created_at >= $1",
        [since],
      );
      if (rows[0].queued === 0 || Date.now() > until) return rows[0].total;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  /** Redis commands per second with no request in flight (the workers' and queue events' polling), to subtract from a run's count. */
  const idleRedisRate = async (milliseconds = 5000) => {
    const before = await redisCommands();
    await new Promise((resolve) => setTimeout(resolve, milliseconds));
    const after = await redisCommands();
    // The two INFO calls themselves are the meter's, not the service's.
    return (Object.entries(after).reduce((sum, [command, calls]) => sum + calls - (before[command] ?? 0), 0) - 1) / (milliseconds / 1000);
  };
  /** Mean size (bytes) of the stored results of the previews created since `since` (what PostgreSQL holds per preview). */
  const storedResultBytes = async (since) => {
    const { rows } = await pg.query('SELECT avg(octet_length(result))::float AS bytes FROM previews WHERE created_at >= $1 AND result IS NOT NULL', [since]);
    return rows[0].bytes;
  };
  return { snapshot, diff, now, previewsSince, idleRedisRate, storedResultBytes, close: () => Promise.all([pg.end(), redis.quit()]) };
}

/**
 * The Redis commands one request costs on its own, the service otherwise idle: `send()` is called `count` times,
 * one at a time, while MONITOR watches (its lines name their source: "lua" for a command run inside a script,
 * else the client's address, i.e. a round trip). The same watch over `idleMs` just before, with no request, gives
 * the workers' and queue events' polling per second, which is taken out. Returns per request: `executed` (what
 * INFO commandstats counts: round trips and commands inside scripts), `roundTrips`, and `byCommand` (executed).
 */
async function redisCommandsPerRequest(redisUrl, send, count = 10, idleMs = 5000) {
  const Redis = require(path.join(tasks.ROOT, 'node_modules', 'ioredis'));
  const monitor = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await monitor.connect();
  const watch = await monitor.monitor();
  let lines = [];
  watch.on('monitor', (_time, args, source) => lines.push({ command: String(args[0]).toLowerCase(), lua: source === 'lua' }));
  const tally = async (work) => {
    lines = [];
    const started = Date.now();
    await work();
    // The last answers' commands (the worker's next fetch, the events read) land just after the last answer.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = lines.filter(({ command }) => command !== 'info');
    return { seconds: (Date.now() - started) / 1000, seen };
  };
  try {
    const idle = await tally(() => new Promise((resolve) => setTimeout(resolve, idleMs)));
    const busy = await tally(async () => {
      for (let i = 0; i < count; i++) await send();
    });
    const idleRate = (filter) => idle.seen.filter(filter).length / idle.seconds;
    const per = (filter) => Math.max(0, busy.seen.filter(filter).length - idleRate(filter) * busy.seconds) / count;
    const commands = [...new Set(busy.seen.map(({ command }) => command))];
    const byCommand = commands
      .map((command) => [command, per((line) => line.command === command)])
      .filter(([, calls]) => calls >= 0.05)
      .sort((a, b) => b[1] - a[1]);
    return { executed: per(() => true), roundTrips: per((line) => !line.lua), byCommand, idlePerSecond: idleRate(() => true) };
  } finally {
    watch.disconnect();
    monitor.disconnect();
  }
}

/** Prints redisCommandsPerRequest's figures for one `what` (a preview, a gate) beside the target (issue 40: <= 20). */
function printCommandsOfOne(what, single) {
  console.log(
    `Redis commands per ${what}, one at a time on an idle service (MONITOR, the idle polling of ${single.idlePerSecond.toFixed(1)}/s taken out): ` +
      `${single.executed.toFixed(1)} executed (target <= 20: ${single.executed <= 20 ? 'met' : 'NOT met'}), of which ${single.roundTrips.toFixed(1)} round trips sent by the API and the worker ` +
      `and ${(single.executed - single.roundTrips).toFixed(1)} run inside their scripts (BullMQ's, the rate limiter's): ${single.byCommand.map(([command, calls]) => `${command} ${calls.toFixed(1)}`).join(', ')}`,
  );
}

/** A redis-server of the benchmark's own on a free port (no persistence, as the shared one), and how to stop it. */
async function startPrivateRedis() {
  const { spawn } = require('node:child_process');
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], {
    stdio: 'ignore',
  });
  const until = Date.now() + 10_000;
  while (
    !(await new Promise((resolve) =>
      net
        .connect(port, '127.0.0.1')
        .once('connect', function () {
          this.end();
          resolve(true);
        })
        .once('error', () => resolve(false)),
    ))
  ) {
    if (Date.now() > until) throw new Error('the private redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

module.exports = {
  redisCommandsPerRequest,
  printCommandsOfOne,
  createProKey,
  signIn,
  serviceCpuMs,
  statCpuMs,
  createCpuMeter,
  startPrivateRedis,
  engineOnlyAllCores,
  prepareBenchmark,
  medianEmail,
  corpusHtmlDir,
  freePort,
  percentile,
  waitReady,
  engineOnlyWindows,
  startServices,
};
