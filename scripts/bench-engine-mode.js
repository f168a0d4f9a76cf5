#!/usr/bin/env node
// One workload of `npm run bench:engine` in a process of its own, as a worker runs it: every corpus file
// analyzed the same way, over and over, in a worker thread with the analysis threads' heap limits.
// Usage (by scripts/bench-engine.js):
//   node scripts/bench-engine-mode.js <bundle.cjs> <core|mailproof|peer> <corpus dir> <warm-up passes> <rounds>
// `peer` runs @emailens/engine's full analysis under exactly the same conditions (a fresh process, a worker
// thread with the same heap limits, the same warm-up passes and rounds): the comparison treats both alike.
// Prints one JSON line: the first pass's times (`cold`), each file's samples over the measured rounds,
// each measured round's corpus total in wall-clock and in CPU time (all of the process's threads: the
// garbage collector's helpers included), errors, and the process's peak RSS.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

if (isMainThread) {
  const [bundle, workload, corpusDir, warmUpPasses, rounds] = process.argv.slice(2);
  const { ANALYSIS_THREAD_LIMITS } = require(path.resolve(bundle));
  const worker = new Worker(__filename, {
    resourceLimits: { ...ANALYSIS_THREAD_LIMITS },
    workerData: { bundle: path.resolve(bundle), workload, corpusDir, warmUpPasses: Math.max(1, Number(warmUpPasses)), rounds: Number(rounds) },
  });
  worker.once('message', (result) => {
    process.stdout.write(`${JSON.stringify({ ...result, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
    worker.terminate();
  });
  worker.once('error', (error) => {
    console.error(error);
    process.exitCode = 1;
  });
} else {
  const { bundle, workload, corpusDir, warmUpPasses, rounds } = workerData;
  /** The peer's full analysis of one email: its audit, every client's transform and dark variant, plain text. */
  function peerFullAnalysis() {
    const emailens = require('@emailens/engine');
    const clients = emailens.EMAIL_CLIENTS.map((c) => c.id);
    return (html) => {
      emailens.auditEmail(html);
      emailens.transformForAllClients(html);
      for (const id of clients) emailens.simulateDarkMode(html, id);
      emailens.toPlainText(html);
    };
  }
  const bench = require(bundle);
  const analyze = workload === 'peer' ? peerFullAnalysis() : { core: bench.mailproofCore, mailproof: bench.mailproof }[workload];
  if (!analyze) throw new Error(`bench-engine-mode: unknown workload ${workload}`);
  const files = fs
    .readdirSync(corpusDir)
    .filter((f) => f.endsWith('.html'))
    .sort();
  const sources = files.map((file) => fs.readFileSync(path.join(corpusDir, file), 'utf8'));

  const errors = sources.map(() => null);
  const elapsed = (i) => {
    if (errors[i] !== null) return null;
    const start = process.hrtime.bigint();
    try {
      analyze(sources[i]);
    } catch (error) {
      errors[i] = String(error && error.message);
      return null;
    }
    return Number(process.hrtime.bigint() - start) / 1e6;
  };

  // The first pass is a fresh process's: the JIT still compiling, the heap still growing. Code that runs
  // once per email (most of the reports) reaches optimized code only after a few passes over the corpus.
  const cold = sources.map((_, i) => elapsed(i));
  for (let pass = 1; pass < warmUpPasses; pass++) sources.forEach((_, i) => elapsed(i));
  const samples = sources.map(() => []);
  const roundWallMs = [];
  const roundCpuMs = [];
  for (let round = 0; round < rounds; round++) {
    const cpuBefore = process.cpuUsage();
    const wallBefore = process.hrtime.bigint();
    sources.forEach((_, i) => samples[i].push(elapsed(i)));
    roundWallMs.push(Number(process.hrtime.bigint() - wallBefore) / 1e6);
    const cpu = process.cpuUsage(cpuBefore);
    roundCpuMs.push((cpu.user + cpu.system) / 1000);
  }
  parentPort.postMessage({ files, cold, samples, roundWallMs, roundCpuMs, errors });
}
