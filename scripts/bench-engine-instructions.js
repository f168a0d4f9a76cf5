#!/usr/bin/env node
/**
 * npm run bench:engine:instructions -- <checkout> [<checkout> ...]: instructions executed by the full analysis
 * (`analyzeEmail`, 21 clients, every report) per email, counted by valgrind's callgrind, per checkout. Unlike
 * any clock, the count does not move with the host's load, so two builds compare on a busy machine.
 *
 * Each checkout's engine is bundled and run in a fresh `node --single-threaded` (the compiler and the garbage
 * collector on the main thread, so that all of the work is counted and the order of the threads cannot change
 * it) under `valgrind --tool=callgrind --instr-atstart=no`: the warm-up passes run uninstrumented, then
 * instrumentation is switched on (callgrind_control) for the measured passes only, and off before the exit.
 * CAUTION (docs/benchmarks.md, "Engine speed, session 19"): the count holds its A/A, but between two builds it has
 * disagreed with their CPU time by up to 50 points (V8's predictable mode is not the code the worker runs); it is
 * not yet a judge between builds.
 * The emails are the smallest of the corpus by bytes (BENCH_INSTRUCTIONS_EMAILS, default 6: per-email and
 * per-client fixed costs dominate there; `all` for every email, which is slow: callgrind runs ~50x slower).
 *
 * Environment: BENCH_CORPUS_DIR, BENCH_WARMUP_PASSES (default: enough passes for ~300 analyses, at least 10),
 * BENCH_INSTRUCTIONS_PASSES (measured passes, default 2), BENCH_INSTRUCTIONS_EMAILS. Needs valgrind (apt-get install valgrind). Method and figures:
 * docs/benchmarks.md ("Engine speed, session 19").
 */
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { spawn, execFileSync } = require('node:child_process');

if (process.argv[2] === '--child') {
  // Inside valgrind: warm up, tell the parent, wait for it to switch instrumentation on, measure, tell it again.
  const [bundle, listFile, warmUp, passes] = process.argv.slice(3);
  const { analyzeEmail } = require(bundle);
  const sources = JSON.parse(fs.readFileSync(listFile, 'utf8')).map((file) => fs.readFileSync(file, 'utf8'));
  const line = Buffer.alloc(64);
  const handshake = (message) => {
    fs.writeSync(1, `${message}\n`);
    fs.readSync(0, line, 0, line.length, null);
  };
  for (let pass = 0; pass < Number(warmUp); pass++) for (const source of sources) analyzeEmail(source, { format: 'html' });
  handshake('warm');
  for (let pass = 0; pass < Number(passes); pass++) for (const source of sources) analyzeEmail(source, { format: 'html' });
  handshake('measured');
  process.exit(0);
}

const { bundleForNode } = require('./lib/node-bundle');
const here = path.resolve(__dirname, '..');
const checkouts = process.argv.slice(2).map((dir) => path.resolve(dir));
if (checkouts.length === 0) checkouts.push(here);
const corpusDir = process.env.BENCH_CORPUS_DIR || path.resolve(here, '..', 'shared', 'corpus', 'html');
if (!fs.existsSync(corpusDir)) {
  console.log(`bench:engine:instructions: no corpus at ${corpusDir}; nothing to measure.`);
  process.exit(0);
}
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.log('bench:engine:instructions: valgrind is not installed (apt-get install valgrind); nothing to measure.');
  process.exit(0);
}
const passes = Number(process.env.BENCH_INSTRUCTIONS_PASSES || 2);
const wanted = process.env.BENCH_INSTRUCTIONS_EMAILS || '6';
const files = fs
  .readdirSync(corpusDir)
  .filter((f) => f.endsWith('.html'))
  .map((f) => path.join(corpusDir, f))
  .sort((a, b) => fs.statSync(a).size - fs.statSync(b).size || (a < b ? -1 : 1));
const chosen = wanted === 'all' ? files : files.slice(0, Number(wanted));
// At least ~300 analyses before counting: with 60 (6 emails, 10 passes) the counted passes still held the
// optimizing compiler's work (59 M instructions per email for the 6 smallest, 26 M per email for the 18 smallest).
const warmUp = Number(process.env.BENCH_WARMUP_PASSES || Math.max(10, Math.ceil(300 / chosen.length)));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-engine-instructions-'));
const listFile = path.join(work, 'emails.json');
fs.writeFileSync(listFile, JSON.stringify(chosen));

/** One checkout under callgrind: the instructions of the measured passes. */
function count(checkout, index) {
  const bundle = bundleForNode(
    'bench-engine-instructions',
    { stdin: { contents: "export { analyzeEmail } from './libs/engine/src';", resolveDir: checkout, loader: 'ts' } },
    String(index),
  );
  const out = path.join(work, `callgrind-${index}.out`);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${out}`,
      process.execPath,
      '--predictable',
      '--predictable-gc-schedule',
      '--hash-seed=1',
      '--random-seed=1',
      __filename,
      '--child',
      bundle,
      listFile,
      String(warmUp),
      String(passes),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const message = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (message === 'warm') execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
        if (message === 'measured') execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
        if (message === 'warm' || message === 'measured') child.stdin.write('go\n');
      }
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`callgrind run of ${checkout} exited with ${code}:\n${stderr.slice(-2000)}`));
      const text = fs.readFileSync(out, 'utf8');
      const totals = /^totals:\s*(\d+)/m.exec(text);
      resolve(totals ? Number(totals[1]) : NaN);
    });
  });
}

(async () => {
  const started = new Date();
  console.log(
    `bench:engine:instructions: ${chosen.length} emails (smallest first: ${chosen.map((f) => path.basename(f)).join(', ')}), ` +
      `${warmUp} warm-up passes uninstrumented, ${passes} measured; started ${started.toISOString()}, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  const counts = [];
  for (const [index, checkout] of checkouts.entries()) {
    const instructions = await count(checkout, index);
    counts.push(instructions);
    const perEmail = instructions / (chosen.length * passes);
    const change = index > 0 ? ` (${instructions >= counts[0] ? '+' : ''}${((instructions / counts[0] - 1) * 100).toFixed(2)}% against the first)` : '';
    console.log(`${checkout}: ${(perEmail / 1e6).toFixed(2)} M instructions per email${change}`);
  }
  if (!process.env.BENCH_KEEP) fs.rmSync(work, { recursive: true, force: true });
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
