// Shared by the end-to-end benchmarks (bench:api, bench:gate): the email they send, a free port, percentiles,
// readiness, and the engine-only figure they are compared with.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const tasks = require('./tasks');

function medianEmail() {
  const corpus = path.join(tasks.ROOT, '..', 'shared', 'corpus', 'html');
  if (fs.existsSync(corpus)) {
    const files = fs.readdirSync(corpus).filter((f) => f.endsWith('.html')).map((f) => ({ f, size: fs.statSync(path.join(corpus, f)).size })).sort((a, b) => a.size - b.size);
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
async function waitReady(url, queues = ['preview'], deadlineMs = 60_000) {
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
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`API and worker did not become ready (queues ${queues.join(', ')})`);
}

/** Emails per second of the engine alone, per window (sorted), in a worker thread like the analysis pool's. */
function engineOnlyWindows(html, count, milliseconds) {
  const { Worker } = require('node:worker_threads');
  const { ANALYSIS_THREAD_LIMITS } = require(path.join(tasks.ROOT, 'dist', 'apps', 'worker-preview', 'src', 'analysis', 'analysis-thread-limits.js'));
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    require('reflect-metadata');
    const { analyzeEmail } = require(workerData.engine);
    const { compileEmail, disposeCompilers } = require(workerData.sandbox);
    const window = async (milliseconds) => {
      const started = Date.now();
      let runs = 0;
      while (Date.now() - started < milliseconds) {
        const compiled = await compileEmail(workerData.html, 'html');
        JSON.stringify(analyzeEmail(compiled.html, { format: 'html' }));
        runs++;
      }
      return runs / ((Date.now() - started) / 1000);
    };
    (async () => {
      await window(2000);
      const rates = [];
      for (let i = 0; i < workerData.count; i++) rates.push(await window(workerData.milliseconds));
      await disposeCompilers();
      parentPort.postMessage(rates.sort((a, b) => a - b));
    })();`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      resourceLimits: { ...ANALYSIS_THREAD_LIMITS },
      workerData: { html, count, milliseconds, engine: path.join(tasks.ROOT, 'dist', 'libs', 'engine', 'src'), sandbox: path.join(tasks.ROOT, 'dist', 'libs', 'sandbox', 'src') },
    });
    worker.once('message', (rates) => {
      resolve(rates);
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
  const dist = path.join(tasks.ROOT, 'dist', 'apps');
  const worker = spawn(process.execPath, [...nodeOptions, path.join(dist, 'worker-preview', 'src', 'main.js')], { env, stdio: 'ignore' });
  const api = spawn(process.execPath, [...nodeOptions, path.join(dist, 'api', 'src', 'main.js')], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
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
  const result = require('node:child_process').spawnSync(process.execPath, [path.join(tasks.ROOT, 'bin', 'mailproof.js'), 'account', 'create', '--name', `${name}-${process.pid}`, '--plan', 'pro'], { env, encoding: 'utf8' });
  const key = /mp_live_[0-9A-Za-z]+/.exec(result.stdout ?? '')?.[0];
  if (!key) throw new Error(`could not create a pro account: ${result.stderr || result.stdout}`);
  return key;
}

/** Signs in through the form, as a browser does, and returns the session cookie. */
async function signIn(url, key) {
  const form = await fetch(`${url}/app/sign-in`);
  const formCookie = form.headers.getSetCookie().find((c) => c.startsWith('mp_sign_in='))?.split(';')[0];
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

module.exports = { createProKey, signIn, serviceCpuMs, prepareBenchmark, medianEmail, freePort, percentile, waitReady, engineOnlyWindows, startServices };
