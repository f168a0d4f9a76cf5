#!/usr/bin/env node
// npm run bench:fix — the auto-fix's cost against the analysis it is compared with: per HTML email of
// ../shared/corpus/html (BENCH_CORPUS_DIR overrides), the median time of fixEmail with the default tiers
// (its findings analysis, the rules, the re-analysis that proves them) and of analyzeEmail (the full
// analysis a preview runs). Target (issue 30): the median fix takes at most twice the median analysis.
// As bench:engine does (docs/benchmarks.md, docs/engine.md): steady state, in a worker thread with the
// analysis threads' heap limits, after warm-up passes over the corpus; here both workloads share the thread
// and every pass runs both on each email back to back, the order turning from email to email and round to
// round, so both get the same warm-up and the same drift of this host's speed. BENCH_FIX_LIMIT_S (300)
// bounds the whole run: warm-up stops at half of it, rounds at all of it (each pass printed). The engine's
// TypeScript is bundled on the fly with esbuild.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

const root = path.resolve(__dirname, '..');
const corpusDir = process.env.BENCH_CORPUS_DIR || path.resolve(root, '..', 'shared', 'corpus', 'html');
/** Passes over the corpus before measuring (bench:engine's 10: the reports' code is still being optimized after 4). */
const warmUpPasses = Number(process.env.BENCH_WARMUP_PASSES || 10);
/** Measured rounds over the corpus; each email's median is taken over them. */
const rounds = Number(process.env.BENCH_ITERATIONS || 7);
const limitMs = Number(process.env.BENCH_FIX_LIMIT_S || 300) * 1000;
const TARGET_RATIO = 2;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The engine's two entry points and the analysis threads' heap limits, in one throw-away CommonJS bundle. */
function bundleEngine() {
  const { buildSync } = require('esbuild');
  const outfile = path.join(root, 'node_modules', '.cache', 'bench-fix', `engine-${process.pid}.cjs`);
  buildSync({
    stdin: {
      contents:
        "export { analyzeEmail, fixEmail } from './libs/engine/src';\nexport { ANALYSIS_THREAD_LIMITS } from './apps/worker-preview/src/analysis/analysis-thread-limits';\n",
      resolveDir: root,
      loader: 'ts',
      sourcefile: 'bench-fix-entry.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  process.on('exit', () => fs.rmSync(outfile, { force: true }));
  return outfile;
}

/** In the worker thread: warm-up passes, then rounds, both workloads on every email, alternating. */
function measure({ bundle, sources, warmUpPasses: passes, rounds: wanted, warmUpDeadline, deadline }) {
  const { analyzeEmail, fixEmail } = require(bundle);
  const workloads = {
    analyze: (html) => analyzeEmail(html, { format: 'html' }),
    fix: (html) => fixEmail(html, { format: 'html' }),
  };
  const errors = sources.map(() => null);
  const pass = (round) => {
    const samples = { analyze: [], fix: [] };
    const totals = { analyze: 0, fix: 0 };
    sources.forEach((html, i) => {
      const order = (round + i) % 2 === 0 ? ['analyze', 'fix'] : ['fix', 'analyze'];
      for (const name of order) {
        if (errors[i] !== null) {
          samples[name].push(null);
          continue;
        }
        const start = process.hrtime.bigint();
        try {
          workloads[name](html);
        } catch (error) {
          errors[i] = `${name}: ${String(error && error.message)}`;
          samples[name].push(null);
          continue;
        }
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        samples[name].push(ms);
        totals[name] += ms;
      }
    });
    // The heap after each pass: a fix that leaked would show as a heap growing from round to round.
    return { samples, totals, heapMb: process.memoryUsage().heapUsed / 1048576 };
  };
  const warmUp = [];
  for (let k = 0; k < passes && (k === 0 || Date.now() < warmUpDeadline); k++) warmUp.push(pass(k).totals);
  const measured = [];
  for (let k = 0; k < wanted && (k === 0 || Date.now() < deadline); k++) measured.push(pass(passes + k));
  return { warmUp, measured, errors };
}

if (!isMainThread) {
  parentPort.postMessage(measure(workerData));
} else {
  main();
}

function main() {
  if (!fs.existsSync(corpusDir)) {
    console.log(`bench:fix: no corpus at ${corpusDir}; nothing to measure.`);
    return;
  }
  const files = fs
    .readdirSync(corpusDir)
    .filter((file) => file.endsWith('.html'))
    .sort();
  if (files.length === 0) {
    console.log(`bench:fix: ${corpusDir} holds no .html files.`);
    return;
  }
  const started = Date.now();
  const bundle = bundleEngine();
  const { ANALYSIS_THREAD_LIMITS } = require(bundle);
  const sources = files.map((file) => fs.readFileSync(path.join(corpusDir, file), 'utf8'));
  const worker = new Worker(__filename, {
    resourceLimits: { ...ANALYSIS_THREAD_LIMITS },
    workerData: {
      bundle,
      sources,
      warmUpPasses: Math.max(1, warmUpPasses),
      rounds: Math.max(1, rounds),
      warmUpDeadline: started + limitMs / 2,
      deadline: started + limitMs,
    },
  });
  worker.once('message', (result) => {
    print(files, sources, result, Date.now() - started);
    worker.terminate();
  });
  worker.once('error', (error) => {
    console.error(error);
    process.exitCode = 1;
  });
}

function print(files, sources, { warmUp, measured, errors }, elapsedMs) {
  const perEmail = files.map((file, i) => {
    const of = (name) => measured.map((round) => round.samples[name][i]).filter((ms) => ms !== null);
    const analyze = errors[i] === null ? median(of('analyze')) : NaN;
    const fix = errors[i] === null ? median(of('fix')) : NaN;
    return { file, kb: Buffer.byteLength(sources[i]) / 1024, analyze, fix, ratio: fix / analyze, error: errors[i] };
  });
  const num = (value) => (Number.isFinite(value) ? value.toFixed(2) : 'error').padStart(10);
  console.log(`${'file'.padEnd(58)}${'KB'.padStart(7)}${'analyze'.padStart(10)}${'fix'.padStart(10)}${'fix/analyze'.padStart(13)}`);
  for (const row of perEmail) {
    console.log(
      `${row.file.padEnd(58)}${row.kb.toFixed(1).padStart(7)}${num(row.analyze)}${num(row.fix)}${(Number.isFinite(row.ratio) ? `${row.ratio.toFixed(2)}x` : '-').padStart(13)}`,
    );
    if (row.error) console.log(`  error: ${row.error}`);
  }
  const ok = perEmail.filter((row) => row.error === null);
  const pass = (totals) => `${totals.analyze.toFixed(0)}/${totals.fix.toFixed(0)}`;
  console.log('');
  console.log(
    `${ok.length} of ${files.length} emails; per email the median of ${measured.length} rounds after ${warmUp.length} warm-up passes over the corpus (both workloads in one worker thread with the analysis threads' heap limits, alternating on every email); ${(elapsedMs / 1000).toFixed(0)} s of the ${limitMs / 1000} s limit`,
  );
  if (warmUp.length < warmUpPasses || measured.length < rounds)
    console.log(`  the time limit cut the run short: ${warmUp.length} of ${warmUpPasses} warm-up passes, ${measured.length} of ${rounds} rounds`);
  console.log(`corpus pass, analyze/fix ms: first ${pass(warmUp[0])}; measured rounds ${measured.map((round) => pass(round.totals)).join(' ')}`);
  console.log(`heap used after each measured round (MB): ${measured.map((round) => round.heapMb.toFixed(0)).join(' ')}`);
  const analyzeMedian = median(ok.map((row) => row.analyze));
  const fixMedian = median(ok.map((row) => row.fix));
  const sum = (key) => ok.reduce((acc, row) => acc + row[key], 0);
  console.log(`median email: analyzeEmail ${analyzeMedian.toFixed(2)} ms, fixEmail ${fixMedian.toFixed(2)} ms`);
  console.log(
    `median of the per-email ratios: ${median(ok.map((row) => row.ratio)).toFixed(2)}x; corpus total: analyze ${sum('analyze').toFixed(1)} ms, fix ${sum('fix').toFixed(1)} ms (${(sum('fix') / sum('analyze')).toFixed(2)}x)`,
  );
  const ratio = fixMedian / analyzeMedian;
  console.log(`median fix / median analysis: ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'NOT MET'})`);
}
