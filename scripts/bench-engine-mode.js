#!/usr/bin/env node
// One workload of `npm run bench:engine` in a process of its own, as a worker runs it: every corpus file
// analysed the same way, over and over. Usage (by scripts/bench-engine.js):
//   node scripts/bench-engine-mode.js <bundle.cjs> <core|mailproof> <corpus dir> <warm-up passes> <rounds>
// Prints one JSON line: the first pass's times (`cold`), each file's samples over the measured rounds,
// errors, and the process's peak RSS.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [bundle, workload, corpusDir, warmUpArgument, roundsArgument] = process.argv.slice(2);
const bench = require(path.resolve(bundle));
const analyse = { core: bench.mailproofCore, mailproof: bench.mailproof }[workload];
if (!analyse) throw new Error(`bench-engine-mode: unknown workload ${workload}`);
const warmUpPasses = Math.max(1, Number(warmUpArgument));
const rounds = Number(roundsArgument);
const files = fs.readdirSync(corpusDir).filter((f) => f.endsWith('.html')).sort();
const sources = files.map((file) => fs.readFileSync(path.join(corpusDir, file), 'utf8'));

const errors = sources.map(() => null);
const elapsed = (i) => {
  if (errors[i] !== null) return null;
  const start = process.hrtime.bigint();
  try {
    analyse(sources[i]);
  } catch (error) {
    errors[i] = String(error && error.message);
    return null;
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
};

// The first pass is a fresh process's: the JIT still compiling, the heap still growing. Code that runs
// once per email (most of the reports) reaches optimised code only after a few passes over the corpus.
const cold = sources.map((_, i) => elapsed(i));
for (let pass = 1; pass < warmUpPasses; pass++) sources.forEach((_, i) => elapsed(i));
const samples = sources.map(() => []);
for (let round = 0; round < rounds; round++) {
  sources.forEach((_, i) => samples[i].push(elapsed(i)));
}
process.stdout.write(`${JSON.stringify({ files, cold, samples, errors, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
