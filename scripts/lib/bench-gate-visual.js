// The gate's cost with the visual check (docs/gate.md, "The visual check"; docs/benchmarks.md): the median-size
// corpus email (a project fixture when the corpus is absent) gated with `checks: ["compatibility", "visual"]`
// and a ref whose baseline was measured first, by 4 connections at once, each sending its next request when its
// last one is answered, BENCH_VISUAL_GATE_RUNS (40) requests in all after 4 warm-up ones (all 21 clients, or the
// BENCH_VISUAL_GATE_CLIENTS a CI would name); then the same email
// without `visual` for comparison. Prints p50/p95/max over every answer (a 503 at the budget counts at its time)
// and how many were 503s (the run did not finish within its budget). Used by `npm run bench:visual` (benchGateVisual) and runnable alone:
//   node scripts/lib/bench-gate-visual.js
'use strict';
const { medianEmail, percentile } = require('./bench-service');
const { startVisualService, call } = require('./gate-visual-service');

const CONNECTIONS = 4;

async function closedLoop(service, body, total) {
  const times = [];
  let notVerdict = 0;
  let next = 0;
  const connection = async () => {
    while (next < total) {
      next++;
      const started = process.hrtime.bigint();
      const { status } = await call(service, 'POST', '/api/gate', body);
      // Every answer counts at its time: a 503 at the budget is a request that waited the whole budget.
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (status !== 200) notVerdict++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  times.sort((a, b) => a - b);
  return { times, notVerdict, wallMs: Date.now() - started };
}

function describe(label, { times, notVerdict, wallMs }) {
  const p = (q) => Math.round(percentile(times, q));
  return `${label}: ${times.length} requests in ${(wallMs / 1000).toFixed(1)} s at ${CONNECTIONS} connections: p50 ${p(50)} ms, p95 ${p(95)} ms, max ${Math.round(times[times.length - 1])} ms (every answer at its time; ${notVerdict} of them 503 at the budget, the run's verdict coming later)`;
}

/** Runs the measurement on a service of its own; returns the figures and prints them. */
async function benchGateVisual({ runs = Number(process.env.BENCH_VISUAL_GATE_RUNS || 40) } = {}) {
  const { html, name } = medianEmail();
  const service = await startVisualService('bench-gate-visual');
  try {
    const ref = `bench-gate-visual/${process.pid}`;
    // BENCH_VISUAL_GATE_CLIENTS (comma-separated ids): the clients a CI would name; default all 21.
    const clients = process.env.BENCH_VISUAL_GATE_CLIENTS ? { clients: process.env.BENCH_VISUAL_GATE_CLIENTS.split(',') } : {};
    const visual = { html, ref, checks: ['compatibility', 'visual'], threshold: 0, failOnError: false, ...clients };
    // The baseline, then the warm-up (Chromium's first pages), then the measured window (read-only: the baseline stays).
    const first = await call(service, 'POST', '/api/gate', { ...visual, updateBaseline: 'always' });
    if (first.status !== 200) throw new Error(`the first gate run answered ${first.status}: ${JSON.stringify(first.body)}`);
    await closedLoop(service, { ...visual, updateBaseline: 'never' }, CONNECTIONS);
    const withVisual = await closedLoop(service, { ...visual, updateBaseline: 'never' }, runs);
    const without = await closedLoop(
      service,
      { html, ref, checks: ['compatibility'], threshold: 0, failOnError: false, updateBaseline: 'never', ...clients },
      runs,
    );
    const load = require('node:os').loadavg()[0].toFixed(1);
    console.log(
      `\n## The gate with the visual check (${name}, ${clients.clients ? clients.clients.join(', ') : 'all 21 clients'}, load average ${load} at the end)`,
    );
    console.log(describe('  with visual   ', withVisual));
    console.log(describe('  without visual', without));
    return { email: name, withVisual, without };
  } finally {
    await service.stop();
  }
}

module.exports = { benchGateVisual };

if (require.main === module) {
  benchGateVisual().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
