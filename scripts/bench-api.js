#!/usr/bin/env node
// npm run bench:api — end-to-end preview latency and throughput against engine-only throughput.
// `api` and `worker-preview` run as separate processes (built dist); autocannon POSTs the
// median-size email of ../shared/corpus/html (or a project fixture when the corpus is absent)
// with 16 connections for 30 s (BENCH_SECONDS), then 15 s more accepting Brotli (BENCH_SKIP_BR=1
// skips it). Then, with the service stopped, the same email is analyzed in a loop in one worker
// thread for the engine-only figure. Targets: p95 <= 150 ms; end-to-end throughput at least 60%
// of engine-only throughput.
'use strict';
const { serviceCpuMs, prepareBenchmark, medianEmail, freePort, percentile, waitReady, engineOnlyWindows, startServices } = require('./lib/bench-service');

const DURATION_S = Number(process.env.BENCH_SECONDS || 30);
const CONNECTIONS = 16;

async function main() {
  const env = await prepareBenchmark('bench-api', { RATE_LIMIT_ANONYMOUS: '1000000' });
  const email = medianEmail();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const { stop: stopServices, pids } = startServices(env, port, profile);
  try {
    await waitReady(url);
    const body = JSON.stringify({ html: email.html });
    const autocannon = require('autocannon');
    const run = (seconds, extraHeaders = {}) =>
      new Promise((resolve, reject) => {
        const latencies = [];
        const instance = autocannon(
          { url: `${url}/api/preview`, method: 'POST', connections: CONNECTIONS, duration: seconds, headers: { 'content-type': 'application/json', ...extraHeaders }, body },
          (error, result) => (error ? reject(error) : resolve({ result, latencies })),
        );
        instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
      });
    await run(5); // warm-up: JIT, pools, sandbox snapshots
    // The headline run: a client that asks for no compression gets the ~700 KB JSON as it is.
    const busyBefore = serviceCpuMs(pids());
    const plain = await run(DURATION_S);
    const busyMs = busyBefore === null ? null : serviceCpuMs(pids()) - busyBefore;
    // A client that accepts Brotli (curl --compressed, axios, browsers) gets the stored ~25 KB untouched.
    const brotli = process.env.BENCH_SKIP_BR ? null : await run(Math.min(DURATION_S, 15), { 'accept-encoding': 'br' });

    // Engine-only: the worker's own steps (compile + analyze + serialise) in a loop, in one thread with the
    // analysis threads' heap limits, same email, with the service stopped so that it has the machine to
    // itself. Two seconds of warm-up (JIT), then the median of five two-second windows: single windows
    // vary by a fifth with the garbage collector's rhythm.
    await stopServices();
    const windows = await engineOnlyWindows(email.html, 5, 2000);
    const engineRps = windows[2];

    console.log(`email: ${email.name} (${Buffer.byteLength(email.html)} bytes), ${CONNECTIONS} connections, ${DURATION_S} s`);
    const report = (label, { result, latencies }, seconds) => {
      latencies.sort((a, b) => a - b);
      const rps = result.requests.total / seconds;
      console.log(`${label}: ${result.requests.total} requests in ${seconds} s, ${result.non2xx} non-2xx, ${result.errors} errors`);
      console.log(`  latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms (target <= 150), p99 ${percentile(latencies, 99).toFixed(1)} ms`);
      console.log(`  throughput ${rps.toFixed(1)} req/s = ${((rps / engineRps) * 100).toFixed(0)}% of engine-only (target >= 60%)`);
    };
    report('end-to-end POST /api/preview, no Accept-Encoding (headline)', plain, DURATION_S);
    if (busyMs !== null) console.log(`  CPU per preview request, the whole service (API, worker, PostgreSQL, Redis): ${(busyMs / plain.result.requests.total).toFixed(1)} ms (engine-only: ${(1000 / engineRps).toFixed(1)} ms)`);
    if (brotli) report('end-to-end POST /api/preview, Accept-Encoding: br', brotli, Math.min(DURATION_S, 15));
    console.log(`engine-only (compile + analyze + serialise, one thread with the analysis threads' heap limits, service stopped): ${engineRps.toFixed(1)} emails/s (median of 2 s windows ${windows.map((w) => w.toFixed(0)).join(', ')})`);
  } finally {
    await stopServices();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
