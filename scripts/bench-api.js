#!/usr/bin/env node
// npm run bench:api — end-to-end preview latency and throughput against engine-only throughput.
// `api` and `worker-preview` run as separate processes (built dist); autocannon POSTs the
// median-size email of ../shared/corpus/html (or a project fixture when the corpus is absent)
// with 16 connections for 30 s (BENCH_SECONDS). Then the same email is analysed in a loop in
// this process for the engine-only figure. Targets: p95 <= 150 ms; end-to-end throughput at
// least 60% of engine-only throughput.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const tasks = require('./lib/tasks');

const DURATION_S = Number(process.env.BENCH_SECONDS || 30);
const CONNECTIONS = 16;

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

async function waitReady(url, deadlineMs = 60_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/health/ready`);
      const body = await res.json();
      if (body.details?.['queue:preview']?.status === 'up') return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('API and worker did not become ready');
}

async function main() {
  tasks.ensureDependencies();
  if (!process.env.BENCH_NO_BUILD) tasks.build({ quiet: true });
  const env = {
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/mailproof_bench',
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: `bench-api-${process.pid}`,
    RATE_LIMIT_ANONYMOUS: '1000000',
    MIGRATE_ON_START: 'true',
  };
  await tasks.ensureServices(env.DATABASE_URL, env.REDIS_URL);
  await tasks.ensureDatabase(env.DATABASE_URL);
  const email = medianEmail();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dist = path.join(tasks.ROOT, 'dist', 'apps');
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const worker = spawn(process.execPath, [...profile, path.join(dist, 'worker-preview', 'src', 'main.js')], { env, stdio: 'ignore' });
  const api = spawn(process.execPath, [...profile, path.join(dist, 'api', 'src', 'main.js')], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
  // SIGTERM lets --cpu-prof write its profile; SIGKILL follows if a process lingers.
  const stop = () => {
    worker.kill('SIGTERM');
    api.kill('SIGTERM');
    setTimeout(() => {
      worker.kill('SIGKILL');
      api.kill('SIGKILL');
    }, 5000).unref();
  };
  try {
    await waitReady(url);
    const body = JSON.stringify({ html: email.html });
    const autocannon = require('autocannon');
    const run = (seconds) =>
      new Promise((resolve, reject) => {
        const latencies = [];
        const instance = autocannon(
          { url: `${url}/api/preview`, method: 'POST', connections: CONNECTIONS, duration: seconds, headers: { 'content-type': 'application/json' }, body },
          (error, result) => (error ? reject(error) : resolve({ result, latencies })),
        );
        instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
      });
    await run(5); // warm-up: JIT, pools, sandbox snapshots
    const { result, latencies } = await run(DURATION_S);
    latencies.sort((a, b) => a - b);
    const e2eRps = result.requests.total / DURATION_S;

    // Engine-only: the worker's own steps (compile + analyse) in a loop, one thread, same email.
    require('reflect-metadata');
    const { analyzeEmail } = require(path.join(tasks.ROOT, 'dist', 'libs', 'engine', 'src'));
    const { compileEmail, disposeCompilers } = require(path.join(tasks.ROOT, 'dist', 'libs', 'sandbox', 'src'));
    const engineUntil = Date.now() + Math.min(DURATION_S, 10) * 1000;
    let engineRuns = 0;
    const engineStarted = Date.now();
    while (Date.now() < engineUntil) {
      const compiled = await compileEmail(email.html, 'html');
      JSON.stringify(analyzeEmail(compiled.html, { format: 'html' }));
      engineRuns++;
    }
    const engineRps = engineRuns / ((Date.now() - engineStarted) / 1000);
    await disposeCompilers();

    console.log(`email: ${email.name} (${Buffer.byteLength(email.html)} bytes), ${CONNECTIONS} connections, ${DURATION_S} s`);
    console.log(`end-to-end POST /api/preview: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors`);
    console.log(`  latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms (target <= 150), p99 ${percentile(latencies, 99).toFixed(1)} ms`);
    console.log(`  throughput ${e2eRps.toFixed(1)} req/s`);
    console.log(`engine-only (compile + analyse + serialise, one thread): ${engineRps.toFixed(1)} emails/s`);
    console.log(`end-to-end / engine-only: ${((e2eRps / engineRps) * 100).toFixed(0)}% (target >= 60%)`);
  } finally {
    stop();
  }
  await new Promise((resolve) => setTimeout(resolve, process.env.BENCH_PROFILE_DIR ? 4000 : 0));
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
