#!/usr/bin/env node
/**
 * npm run bench:engine:paired -- <other checkout> [rounds]: an in-process, paired A/B of the full analysis
 * (`analyzeEmail`, 21 clients, every report) between another checkout (base) and this one, made for a loaded
 * host. Both engines are bundled and loaded into ONE worker thread (the analysis threads' heap limits); every
 * email is analyzed by both, back to back, the order turning per email and per round, and each analysis is
 * timed in CPU time (`process.threadCpuUsage` where Node has it, else `process.cpuUsage`). A neighbour that
 * slows the host slows both sides of a pair alike; wall clock is not used.
 *
 * Prints per email the median CPU time of each side over the rounds and the median of the paired ratios, then the median of the
 * per-email changes (with quartiles) for the smallest third of the corpus (by bytes), the other two thirds and
 * all emails, the ratio of the per-email medians and of the corpus totals. Pass this checkout as <other
 * checkout> for an A/A run (two bundles of the same code): its figures are the method's noise.
 *
 * Environment: BENCH_CORPUS_DIR (default ../shared/corpus/html), BENCH_WARMUP_PASSES (10 per side; V8 keeps
 * optimizing per-email code for several passes), BENCH_PAIRED_REPEAT (analyses per timed sample, default 1),
 * BENCH_PAIRED_SUBSET=small (time the smallest third only; the warm-up still covers the whole corpus).
 * Method and figures: docs/benchmarks.md ("Engine speed, session 19").
 */
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

if (isMainThread) {
  const { bundleForNode } = require('./lib/node-bundle');
  const here = path.resolve(__dirname, '..');
  const other = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const rounds = Number(process.argv[3] || 15);
  if (!other || !fs.existsSync(path.join(other, 'libs', 'engine', 'src'))) {
    console.error('usage: npm run bench:engine:paired -- <checkout with libs/engine> [rounds]');
    process.exit(2);
  }
  const corpusDir = process.env.BENCH_CORPUS_DIR || path.resolve(here, '..', 'shared', 'corpus', 'html');
  if (!fs.existsSync(corpusDir)) {
    console.log(`bench:engine:paired: no corpus at ${corpusDir}; nothing to measure.`);
    process.exit(0);
  }
  const bundle = (checkout, tag) =>
    bundleForNode('bench-engine-paired', { stdin: { contents: "export { analyzeEmail } from './libs/engine/src';", resolveDir: checkout, loader: 'ts' } }, tag);
  const bundles = { base: bundle(other, 'base'), this: bundle(here, 'this') };
  const { ANALYSIS_THREAD_LIMITS } = require(
    bundleForNode('bench-engine-paired', { entryPoints: [path.join(here, 'apps/worker-preview/src/analysis/analysis-thread-limits.ts')] }, 'limits'),
  );
  const worker = new Worker(__filename, {
    resourceLimits: { ...ANALYSIS_THREAD_LIMITS },
    workerData: {
      bundles,
      corpusDir,
      rounds,
      warmUpPasses: Number(process.env.BENCH_WARMUP_PASSES || 10),
      repeat: Math.max(1, Number(process.env.BENCH_PAIRED_REPEAT || 1)),
      smallOnly: process.env.BENCH_PAIRED_SUBSET === 'small',
    },
  });
  const startedLoad = require('node:os').loadavg()[0];
  const started = new Date();
  worker.once('message', (result) => {
    report(result, { other, here, rounds, startedLoad, started });
    worker.terminate();
  });
  worker.once('error', (error) => {
    console.error(error);
    process.exitCode = 1;
  });
} else {
  const { bundles, corpusDir, rounds, warmUpPasses, repeat, smallOnly } = workerData;
  const sides = { base: require(bundles.base).analyzeEmail, this: require(bundles.this).analyzeEmail };
  const files = fs
    .readdirSync(corpusDir)
    .filter((f) => f.endsWith('.html'))
    .sort();
  const sources = files.map((file) => fs.readFileSync(path.join(corpusDir, file), 'utf8'));
  const bytes = sources.map((s) => Buffer.byteLength(s));
  const bySize = files.map((_, i) => i).sort((a, b) => bytes[a] - bytes[b] || (files[a] < files[b] ? -1 : 1));
  const third = Math.ceil(files.length / 3);
  const group = files.map(() => 'large');
  bySize.forEach((index, rank) => {
    if (rank < third) group[index] = 'small';
    else if (rank < 2 * third) group[index] = 'middle';
  });
  const cpu = typeof process.threadCpuUsage === 'function' ? () => process.threadCpuUsage() : () => process.cpuUsage();
  const cpuMs = (before) => {
    const after = cpu();
    return (after.user - before.user + after.system - before.system) / 1000;
  };
  const analyze = (side, i) => sides[side](sources[i], { format: 'html' });
  for (let pass = 0; pass < warmUpPasses; pass++) {
    for (let i = 0; i < sources.length; i++) for (const side of pass % 2 ? ['this', 'base'] : ['base', 'this']) analyze(side, i);
  }
  const timed = files.map((_, i) => i).filter((i) => !smallOnly || group[i] === 'small');
  const samples = { base: files.map(() => []), this: files.map(() => []) };
  // A fixed shuffle per round (a small linear congruential generator): neighbours in the order change.
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < rounds; round++) {
    const order = [...timed];
    for (let k = order.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [order[k], order[j]] = [order[j], order[k]];
    }
    order.forEach((i, position) => {
      for (const side of (round + position) % 2 ? ['this', 'base'] : ['base', 'this']) {
        const before = cpu();
        for (let r = 0; r < repeat; r++) analyze(side, i);
        samples[side][i].push(cpuMs(before) / repeat);
      }
    });
  }
  parentPort.postMessage({ files, bytes, group, samples, timed, clock: typeof process.threadCpuUsage === 'function' ? 'thread CPU' : 'process CPU' });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function report({ files, bytes, group, samples, timed, clock }, { other, here, rounds, startedLoad, started }) {
  const pct = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
  const rows = timed.map((i) => {
    const base = median(samples.base[i]);
    const mine = median(samples.this[i]);
    // The change per email: the median over the rounds of the ratio within each pair (both sides timed back to
    // back, so a drift of the host's speed between rounds cancels).
    const ratio = median(samples.this[i].map((ms, round) => ms / samples.base[i][round]));
    return { file: files[i], bytes: bytes[i], group: group[i], base, mine, ratio };
  });
  rows.sort((a, b) => a.bytes - b.bytes);
  console.log(`bench:engine:paired, ${clock} per analysis, median of ${rounds} rounds; base ${other}, this ${here}`);
  console.log(
    `started ${started.toISOString()}, load average ${startedLoad.toFixed(2)} at the start, ${require('node:os').loadavg()[0].toFixed(2)} at the end`,
  );
  console.log('');
  console.log(`${'email'.padEnd(58)} ${'bytes'.padStart(7)} ${'base ms'.padStart(8)} ${'this ms'.padStart(8)} change`);
  for (const row of rows) {
    console.log(
      `${row.file.padEnd(58)} ${String(row.bytes).padStart(7)} ${row.base.toFixed(3).padStart(8)} ${row.mine.toFixed(3).padStart(8)} ${pct(row.ratio)}`,
    );
  }
  console.log('');
  const summary = (name, subset) => {
    if (subset.length === 0) return;
    const ratios = subset.map((r) => r.ratio).sort((a, b) => a - b);
    const q = (f) => ratios[Math.min(ratios.length - 1, Math.floor(ratios.length * f))];
    const sum = (key) => subset.reduce((total, r) => total + r[key], 0);
    console.log(
      `${name.padEnd(22)} ${String(subset.length).padStart(3)} emails: median of the per-email changes ${pct(median(ratios))} (quartiles ${pct(q(0.25))} .. ${pct(q(0.75))}); ` +
        `median email ${median(subset.map((r) => r.base)).toFixed(3)} -> ${median(subset.map((r) => r.mine)).toFixed(3)} ms; total ${pct(sum('mine') / sum('base'))}`,
    );
  };
  summary(
    'smallest third',
    rows.filter((r) => r.group === 'small'),
  );
  summary(
    'middle third',
    rows.filter((r) => r.group === 'middle'),
  );
  summary(
    'largest third',
    rows.filter((r) => r.group === 'large'),
  );
  summary('all timed', rows);
}
