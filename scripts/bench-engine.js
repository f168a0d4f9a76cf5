#!/usr/bin/env node
// npm run bench:engine — Mailproof's engine vs @emailens/engine vs the floor (parse + 21 serialisations),
// over every HTML file in ../shared/corpus/html, plus the cost of the quality reports: the full analysis
// against the core alone (reports: false). Budget: the reports add at most 30% to the core.
// The engine's TypeScript is bundled on the fly with esbuild.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { buildSync } = require('esbuild');

const root = path.resolve(__dirname, '..');
const corpusDir = process.env.BENCH_CORPUS_DIR || path.resolve(root, '..', 'shared', 'corpus', 'html');
const iterations = Number(process.env.BENCH_ITERATIONS || 5);

if (!fs.existsSync(corpusDir)) {
  console.log(`bench:engine: no corpus at ${corpusDir}; nothing to measure.`);
  process.exit(0);
}
const files = fs.readdirSync(corpusDir).filter((f) => f.endsWith('.html')).sort();
if (files.length === 0) {
  console.log(`bench:engine: ${corpusDir} holds no .html files.`);
  process.exit(0);
}

function loadMailproof() {
  // Inside the project so the bundle's bare imports resolve from node_modules.
  const outfile = path.join(root, 'node_modules', '.cache', 'bench-engine', `engine-${process.pid}.cjs`);
  buildSync({ entryPoints: [path.join(root, 'bench', 'engine.bench.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', outfile, logLevel: 'warning' });
  const mod = require(outfile);
  fs.rmSync(outfile, { force: true });
  return mod;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Medians of two workloads sampled in alternation, so that both see the same heap (garbage left by one
 * is collected during the next, whichever it is) rather than the full analysis always following itself.
 */
function timePair(first, second) {
  first();
  second(); // warm-up: JIT and caches
  const a = [];
  const b = [];
  for (let i = 0; i < iterations; i++) {
    let start = process.hrtime.bigint();
    first();
    a.push(Number(process.hrtime.bigint() - start) / 1e6);
    start = process.hrtime.bigint();
    second();
    b.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return [median(a), median(b)];
}

function time(fn) {
  fn(); // warm-up: JIT and caches
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

const maxRssMb = () => process.resourceUsage().maxRSS / 1024;
const sources = files.map((file) => fs.readFileSync(path.join(corpusDir, file), 'utf8'));
const rows = files.map((file, i) => ({ file, kb: Buffer.byteLength(sources[i]) / 1024 }));
const baseRss = maxRssMb();

// Phase 1: Mailproof (and the floor, which only needs parse5) before the peer is even loaded,
// so the peak RSS after this phase is Mailproof's own.
const bench = loadMailproof();
sources.forEach((html, i) => {
  rows[i].floor = time(() => bench.floor(html));
  try {
    [rows[i].core, rows[i].mailproof] = timePair(() => bench.mailproofCore(html), () => bench.mailproof(html));
    rows[i].mailproofClients = bench.clientCount;
  } catch (error) {
    rows[i].mailproof = NaN;
    rows[i].core = NaN;
    rows[i].mailproofError = String(error && error.message);
  }
});
const mailproofPeak = maxRssMb();

// Where the reports' time goes: each report step timed inside the analysis (a separate run of the
// corpus, after the measurement above), as milliseconds per corpus pass, median over the rounds.
const stepRounds = [];
sources.forEach((html) => bench.reportSteps(html, {})); // warm-up
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

// Phase 2: the peer.
const emailens = require('@emailens/engine');
const peerClients = emailens.EMAIL_CLIENTS.map((c) => c.id);
const peerFull = (html) => {
  emailens.auditEmail(html);
  emailens.transformForAllClients(html);
  for (const id of peerClients) emailens.simulateDarkMode(html, id);
  emailens.toPlainText(html);
};
sources.forEach((html, i) => {
  try {
    rows[i].peer = time(() => peerFull(html));
  } catch (error) {
    rows[i].peer = NaN;
    rows[i].peerError = String(error && error.message);
  }
});
const overallPeak = maxRssMb();

const pad = (s, n) => String(s).padEnd(n);
const num = (v) => (Number.isFinite(v) ? v.toFixed(2) : 'error').padStart(10);
const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)}%` : '-').padStart(9);
console.log(`${pad('file', 58)}${'KB'.padStart(7)}${'core'.padStart(10)}${'mailproof'.padStart(10)}${'reports'.padStart(9)}${'emailens'.padStart(10)}${'floor'.padStart(10)}${'speedup'.padStart(10)}`);
const speedups = [];
const reportShares = [];
for (const row of rows) {
  const speedup = row.peer / row.mailproof;
  if (Number.isFinite(speedup)) speedups.push(speedup);
  const share = (row.mailproof - row.core) / row.core;
  if (Number.isFinite(share)) reportShares.push(share);
  console.log(`${pad(row.file, 58)}${row.kb.toFixed(1).padStart(7)}${num(row.core)}${num(row.mailproof)}${pct(share)}${num(row.peer)}${num(row.floor)}${(Number.isFinite(speedup) ? `${speedup.toFixed(2)}x` : '-').padStart(10)}`);
  if (row.mailproofError) console.log(`  mailproof error: ${row.mailproofError}`);
  if (row.peerError) console.log(`  emailens error: ${row.peerError}`);
}
const total = (key) => rows.reduce((sum, r) => sum + (Number.isFinite(r[key]) ? r[key] : 0), 0);
console.log('');
console.log(`files: ${rows.length}; clients: mailproof ${bench.clientCount}, @emailens/engine ${peerClients.length}; median of ${iterations} runs per file`);
console.log(`total ms: mailproof ${total('mailproof').toFixed(1)} (core ${total('core').toFixed(1)} + reports ${(total('mailproof') - total('core')).toFixed(1)}), @emailens/engine ${total('peer').toFixed(1)}, floor ${total('floor').toFixed(1)}`);
const corpusShare = (total('mailproof') - total('core')) / total('core');
console.log(`reports cost: +${(corpusShare * 100).toFixed(1)}% of the core over the corpus, median per file +${(median(reportShares) * 100).toFixed(1)}% (budget +30%)`);
console.log(`where the reports' time goes (timed step by step inside the analysis, ms per corpus pass, median of ${iterations} passes):`);
for (const [name, ms] of [...stepMedians].sort((x, y) => y[1] - x[1])) {
  console.log(`  ${pad(name, 34)}${ms.toFixed(1).padStart(8)} ms ${`${((ms / stepTotal) * 100).toFixed(0)}%`.padStart(5)}`);
}
console.log(`  ${pad('all report steps', 34)}${stepTotal.toFixed(1).padStart(8)} ms`);
console.log(`peak RSS: start ${baseRss.toFixed(0)} MB; after mailproof phase ${mailproofPeak.toFixed(0)} MB (+${(mailproofPeak - baseRss).toFixed(0)}); after @emailens/engine phase ${overallPeak.toFixed(0)} MB (+${(overallPeak - mailproofPeak).toFixed(0)})`);
console.log(`median speedup vs @emailens/engine: ${median(speedups).toFixed(2)}x`);
