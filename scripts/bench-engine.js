#!/usr/bin/env node
// npm run bench:engine — Mailproof's engine vs @emailens/engine vs the floor (parse + 21 serializations),
// over every HTML file in ../shared/corpus/html, plus the cost of the quality reports: the full analysis
// against the core alone (reports: false). Budget: the reports add at most 30% to the core.
// Figures are steady state, as in a worker that has analyzed a few hundred emails: passes over the whole
// corpus warm every workload up first (the first pass's figures are printed too), then rounds over the
// corpus give each file's median. The core and the full analysis each run in processes of their own, in a
// worker thread with the analysis threads' heap limits (scripts/bench-engine-mode.js), as the preview
// worker runs one or the other: sharing a process, each would pay for the other's garbage and JIT state.
// The processes run in pairs (core and full back to back, the order turning) and the reports' cost is the
// median of the pairs' ratios: this host's speed drifts by a tenth or more within a minute, and a pair sees
// the same drift. The engine's TypeScript is bundled on the fly with esbuild. Method: docs/engine.md.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { bundleForNode } = require('./lib/node-bundle');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const corpusDir = process.env.BENCH_CORPUS_DIR || path.resolve(root, '..', 'shared', 'corpus', 'html');
/** Measured rounds over the corpus after the warm-up passes (the median of each file is taken over them). */
const iterations = Number(process.env.BENCH_ITERATIONS || 7);
/**
 * Passes over the corpus before measuring. Code that runs once per email (most of the reports) is
 * optimized, and re-optimized as new emails show it new object shapes, for several passes: with 4, the
 * compiler threads still spent ~90 ms per pass of the full analysis (about a third of its time) and the
 * figures measured the JIT; after 10 a worker is where it stays.
 */
const warmUpPasses = Number(process.env.BENCH_WARMUP_PASSES || 10);
/** Pairs of processes (one core, one full analysis), each pair back to back. */
const processPairs = Number(process.env.BENCH_PROCESSES || 4);

if (!fs.existsSync(corpusDir)) {
  console.log(`bench:engine: no corpus at ${corpusDir}; nothing to measure.`);
  process.exit(0);
}
const files = fs
  .readdirSync(corpusDir)
  .filter((f) => f.endsWith('.html'))
  .sort();
if (files.length === 0) {
  console.log(`bench:engine: ${corpusDir} holds no .html files.`);
  process.exit(0);
}

/** Bundles the engine's benchmark entry (inside the project, so that its bare imports resolve from node_modules). */
function bundleMailproof() {
  return bundleForNode('bench-engine', { entryPoints: [path.join(root, 'bench', 'engine.bench.ts')] });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const elapsedMs = (fn) => {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

function time(fn) {
  fn(); // warm-up: JIT and caches
  const samples = [];
  for (let i = 0; i < iterations; i++) samples.push(elapsedMs(fn));
  return median(samples);
}

const maxRssMb = () => process.resourceUsage().maxRSS / 1024;
const sources = files.map((file) => fs.readFileSync(path.join(corpusDir, file), 'utf8'));
const rows = files.map((file, i) => ({ file, kb: Buffer.byteLength(sources[i]) / 1024 }));
const baseRss = maxRssMb();

// Phase 1: Mailproof. The floor (which only needs parse5) here; each Mailproof workload in processes of
// its own, before the peer is even loaded.
const bundle = bundleMailproof();
const bench = require(bundle);
sources.forEach((html, i) => {
  rows[i].floor = time(() => bench.floor(html));
});
const modeRuns = { core: [], mailproof: [] };
for (let k = 0; k < processPairs; k++) {
  for (const workload of k % 2 === 0 ? ['core', 'mailproof'] : ['mailproof', 'core']) {
    const output = execFileSync(
      process.execPath,
      [path.join(__dirname, 'bench-engine-mode.js'), bundle, workload, corpusDir, String(warmUpPasses), String(iterations)],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    modeRuns[workload].push(JSON.parse(output));
  }
}
const pooledMedian = (runs, i) => (runs.some((run) => run.errors[i] !== null) ? NaN : median(runs.flatMap((run) => run.samples[i])));
rows.forEach((row, i) => {
  row.core = pooledMedian(modeRuns.core, i);
  row.mailproof = pooledMedian(modeRuns.mailproof, i);
  row.mailproofError = [...modeRuns.mailproof, ...modeRuns.core].map((run) => run.errors[i]).find((error) => error !== null);
});
/** Per process: the median corpus pass in wall-clock time and in CPU time (all threads), and the first pass. */
const passFigures = (run) => ({ wall: median(run.roundWallMs), cpu: median(run.roundCpuMs), cold: run.cold.reduce((sum, ms) => sum + (ms ?? 0), 0) });
const pairs = modeRuns.core.map((run, k) => ({ core: passFigures(run), full: passFigures(modeRuns.mailproof[k]) }));
const mailproofPeak = Math.max(...modeRuns.mailproof.map((run) => run.maxRssMb));

// Where the reports' time goes: each report step timed inside the analysis (a separate run of the
// corpus, after the measurement above), as milliseconds per corpus pass, median over the rounds.
const stepRounds = [];
for (let pass = 0; pass < warmUpPasses; pass++) sources.forEach((html) => bench.reportSteps(html, {})); // warm-up
for (let round = 0; round < iterations; round++) {
  const totals = {};
  for (const html of sources) {
    try {
      bench.reportSteps(html, totals);
    } catch {
      // A file the analysis refuses is reported with its error in the table above.
    }
  }
  stepRounds.push(totals);
}
const stepNames = Object.keys(stepRounds[0]);
const stepMedians = stepNames.map((name) => [name, median(stepRounds.map((totals) => totals[name] ?? 0))]);
const stepTotal = stepMedians.reduce((sum, [, ms]) => sum + ms, 0);

// Phase 2: the peer, treated exactly as Mailproof: its own fresh processes (as many as each Mailproof
// workload had), the same worker thread with the same heap limits, the same warm-up passes and rounds, samples
// pooled. (Until session 10 it ran once in this process with one warm-up pass: a 10x speed-up measured that
// way was 8.6x measured this way, issue 28.) BENCH_PEER_PROCESSES runs fewer, to save time.
const peerProcesses = Number(process.env.BENCH_PEER_PROCESSES || processPairs);
const peerModeRuns = [];
for (let k = 0; k < peerProcesses; k++) {
  const output = execFileSync(
    process.execPath,
    [path.join(__dirname, 'bench-engine-mode.js'), bundle, 'peer', corpusDir, String(warmUpPasses), String(iterations)],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  peerModeRuns.push(JSON.parse(output));
}
rows.forEach((row, i) => {
  row.peer = pooledMedian(peerModeRuns, i);
  row.peerError = peerModeRuns.map((run) => run.errors[i]).find((error) => error !== null);
});
const emailens = require('@emailens/engine');
const peerClients = emailens.EMAIL_CLIENTS.map((c) => c.id);
const peerPeak = Math.max(...peerModeRuns.map((run) => run.maxRssMb));
const overallPeak = maxRssMb();

const pad = (s, n) => String(s).padEnd(n);
const num = (v) => (Number.isFinite(v) ? v.toFixed(2) : 'error').padStart(10);
const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)}%` : '-').padStart(9);
console.log(
  `${pad('file', 58)}${'KB'.padStart(7)}${'core'.padStart(10)}${'mailproof'.padStart(10)}${'reports'.padStart(9)}${'emailens'.padStart(10)}${'floor'.padStart(10)}${'speedup'.padStart(10)}`,
);
const speedups = [];
const reportShares = [];
for (const row of rows) {
  const speedup = row.peer / row.mailproof;
  if (Number.isFinite(speedup)) speedups.push(speedup);
  const share = (row.mailproof - row.core) / row.core;
  if (Number.isFinite(share)) reportShares.push(share);
  console.log(
    `${pad(row.file, 58)}${row.kb.toFixed(1).padStart(7)}${num(row.core)}${num(row.mailproof)}${pct(share)}${num(row.peer)}${num(row.floor)}${(Number.isFinite(speedup) ? `${speedup.toFixed(2)}x` : '-').padStart(10)}`,
  );
  if (row.mailproofError) console.log(`  mailproof error: ${row.mailproofError}`);
  if (row.peerError) console.log(`  emailens error: ${row.peerError}`);
}
const total = (key) => rows.reduce((sum, r) => sum + (Number.isFinite(r[key]) ? r[key] : 0), 0);
console.log('');
console.log(
  `files: ${rows.length}; clients: mailproof ${bench.clientCount}, @emailens/engine ${peerClients.length}; per file the median of ${iterations} rounds over the corpus after ${warmUpPasses} warm-up passes, in fresh processes with the analysis threads' heap limits, samples pooled (Mailproof: ${processPairs} processes per workload; the peer: ${peerProcesses}, the same way)`,
);
console.log(
  `total ms: mailproof ${total('mailproof').toFixed(1)} (core ${total('core').toFixed(1)} + reports ${(total('mailproof') - total('core')).toFixed(1)}), @emailens/engine ${total('peer').toFixed(1)}, floor ${total('floor').toFixed(1)}`,
);
const corpusShare = (total('mailproof') - total('core')) / total('core');
const percent = (share) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
const pairShares = pairs.map((pair) => pair.full.wall / pair.core.wall - 1).sort((a, b) => a - b);
const cpuShares = pairs.map((pair) => pair.full.cpu / pair.core.cpu - 1).sort((a, b) => a - b);
const coldShares = pairs.map((pair) => pair.full.cold / pair.core.cold - 1).sort((a, b) => a - b);
const spread = (shares) => `${percent(shares[0])} to ${percent(shares[shares.length - 1])}`;
console.log(
  `reports cost: ${percent(median(pairShares))} of the core over the corpus (median of ${processPairs} process pairs, ${spread(pairShares)}), median per file ${percent(median(reportShares))} (budget +30%)`,
);
console.log(
  `  summed per-file medians: ${percent(corpusShare)}; corpus pass per process: core ${pairs.map((pair) => pair.core.wall.toFixed(0)).join(' ')} ms, full ${pairs.map((pair) => pair.full.wall.toFixed(0)).join(' ')} ms`,
);
console.log(
  `  CPU time of all the process's threads (garbage-collector helpers included): ${percent(median(cpuShares))} (${spread(cpuShares)}); core ${median(pairs.map((pair) => pair.core.cpu)).toFixed(0)} ms, full ${median(pairs.map((pair) => pair.full.cpu)).toFixed(0)} ms per corpus pass`,
);
console.log(
  `  the first pass of a fresh process (JIT still compiling): ${percent(median(coldShares))}; core ${median(pairs.map((pair) => pair.core.cold)).toFixed(0)} ms, full ${median(pairs.map((pair) => pair.full.cold)).toFixed(0)} ms`,
);
console.log(`where the reports' time goes (timed step by step inside the analysis, ms per corpus pass, median of ${iterations} passes):`);
for (const [name, ms] of [...stepMedians].sort((x, y) => y[1] - x[1])) {
  console.log(`  ${pad(name, 34)}${ms.toFixed(1).padStart(8)} ms ${`${((ms / stepTotal) * 100).toFixed(0)}%`.padStart(5)}`);
}
console.log(`  ${pad('all report steps', 34)}${stepTotal.toFixed(1).padStart(8)} ms`);
console.log(
  `peak RSS: a process running Mailproof's full analysis ${mailproofPeak.toFixed(0)} MB, one running @emailens/engine's ${peerPeak.toFixed(0)} MB; this process ${overallPeak.toFixed(0)} MB (it started at ${baseRss.toFixed(0)} MB and holds the floor's parse5 too)`,
);
console.log(`median speedup vs @emailens/engine: ${median(speedups).toFixed(2)}x`);

// Phase 3, the eml row: each corpus email wrapped into a realistic multipart/alternative message (built by the
// bench entry: a text part, quoted-printable parts, one-click unsubscribe and DKIM headers), and what format
// eml adds to its analysis, the parse (scan, MIME decoding) and the message report, timed in this process
// after the same warm-up passes, as each file's median over the rounds. Its share is against the full
// analysis above (the worker's steady state). Target: at most +10% (issue 33, docs/messages.md).
async function measureEml() {
  const authentication = await bench.messageAuthentication();
  const messages = sources.map((html) => {
    try {
      return bench.messageOf(html);
    } catch {
      return null; // an email the analysis refuses has its error in the table above
    }
  });
  const once = async (i) => {
    const start = process.hrtime.bigint();
    await bench.emlOverhead(messages[i].raw, messages[i].htmlText, authentication);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const samples = messages.map(() => []);
  const errors = messages.map((m) => (m ? null : 'not analyzed'));
  for (let pass = 0; pass < warmUpPasses + iterations; pass++) {
    for (let i = 0; i < messages.length; i++) {
      if (errors[i] !== null) continue;
      try {
        const ms = await once(i);
        if (pass >= warmUpPasses) samples[i].push(ms);
      } catch (error) {
        errors[i] = String(error && error.message);
      }
    }
  }
  const emlRows = rows.map((row, i) => ({
    file: row.file,
    kb: Buffer.byteLength(messages[i]?.raw ?? '') / 1024,
    eml: errors[i] ? NaN : median(samples[i]),
    full: row.mailproof,
    error: errors[i],
  }));
  console.log('');
  console.log(`${pad('eml: the same emails as whole messages', 58)}${'KB'.padStart(7)}${'eml'.padStart(10)}${'full'.padStart(10)}${'adds'.padStart(9)}`);
  const shares = [];
  for (const row of emlRows) {
    const share = row.eml / row.full;
    if (Number.isFinite(share)) shares.push(share);
    console.log(`${pad(row.file, 58)}${row.kb.toFixed(1).padStart(7)}${num(row.eml)}${num(row.full)}${pct(share)}`);
    if (row.error && row.error !== 'not analyzed') console.log(`  eml error: ${row.error}`);
  }
  const measured = emlRows.filter((row) => Number.isFinite(row.eml) && Number.isFinite(row.full));
  const emlTotal = measured.reduce((sum, row) => sum + row.eml, 0);
  const fullTotal = measured.reduce((sum, row) => sum + row.full, 0);
  console.log(
    `eml row: parse + message report ${emlTotal.toFixed(1)} ms over ${measured.length} messages against ${fullTotal.toFixed(1)} ms of full analysis: adds ${percent(emlTotal / fullTotal)} over the corpus, median per file ${percent(median(shares))}, largest ${percent(Math.max(...shares))} (target +10%)`,
  );
}
measureEml().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
