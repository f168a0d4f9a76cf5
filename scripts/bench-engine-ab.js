#!/usr/bin/env node
/**
 * npm run bench:engine:ab -- <other checkout> [rounds]: bench:engine in this checkout and another one (a git
 * worktree of an earlier commit, with node_modules linked), alternated round by round so that both see the
 * same drift of this host's speed. Prints, per side, each round's corpus total, then per email the median of
 * its rounds, and the change this checkout makes: the median over the emails of the per-email ratios, the
 * ratio of the per-email medians and of the totals. Rounds default to 3; each run uses BENCH_PROCESSES (2).
 * Issue 27's target: the median per email grows by at most 15% (docs/benchmarks.md).
 */
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

const here = path.resolve(__dirname, '..');
const other = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
const rounds = Number(process.argv[3] || 3);
if (!other || !fs.existsSync(path.join(other, 'scripts', 'bench-engine.js'))) {
  console.error('usage: npm run bench:engine:ab -- <checkout with scripts/bench-engine.js> [rounds]');
  process.exit(2);
}

const ROW = /^(\S+\.html)\s+([\d.]+)\s+([\d.]+|error)\s+([\d.]+|error)\s/;

/** One bench:engine run: per file, the full analysis' median ms. */
function run(dir) {
  const output = execFileSync(process.execPath, [path.join(dir, 'scripts', 'bench-engine.js')], {
    cwd: dir,
    env: { ...process.env, BENCH_PROCESSES: process.env.BENCH_PROCESSES || '2' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 15 * 60 * 1000,
  });
  const perFile = new Map();
  for (const line of output.split('\n')) {
    const match = ROW.exec(line);
    if (match && match[4] !== 'error') perFile.set(match[1], Number(match[4]));
  }
  // The run's own comparison with the peer (issue 40: the speed-up must stay above 8x), printed per round.
  const speedup = /median speedup vs (\S+): ([\d.]+)x/.exec(output);
  if (speedup) perFile.speedup = `${speedup[2]}x over ${speedup[1]}`;
  return perFile;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const sides = { base: { dir: other, runs: [] }, this: { dir: here, runs: [] } };
for (let round = 1; round <= rounds; round++) {
  for (const [name, side] of round % 2 ? Object.entries(sides) : Object.entries(sides).reverse()) {
    const perFile = run(side.dir);
    side.runs.push(perFile);
    const total = [...perFile.values()].reduce((a, b) => a + b, 0);
    const speedup = perFile.speedup ? `; median speedup ${perFile.speedup}` : '';
    console.log(`round ${round} ${name.padEnd(4)} ${total.toFixed(1)} ms over ${perFile.size} emails${speedup} (${side.dir})`);
  }
}
const files = [...sides.base.runs[0].keys()].filter((file) => sides.this.runs.every((r) => r.has(file)) && sides.base.runs.every((r) => r.has(file)));
const perEmail = (side) => new Map(files.map((file) => [file, median(side.runs.map((r) => r.get(file)))]));
const base = perEmail(sides.base);
const mine = perEmail(sides.this);
const ratios = files.map((file) => mine.get(file) / base.get(file));
const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
const pct = (ratio) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
console.log('');
console.log(`per email (median of ${rounds} rounds), ${files.length} emails:`);
console.log(
  `  median email: base ${median([...base.values()]).toFixed(2)} ms, this ${median([...mine.values()]).toFixed(2)} ms (${pct(median([...mine.values()]) / median([...base.values()]))})`,
);
console.log(
  `  median of the per-email changes: ${pct(median(ratios))} (quartiles ${pct(ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 4)])} .. ${pct(ratios[Math.floor((ratios.length * 3) / 4)])})`,
);
console.log(`  corpus total: base ${sum(base).toFixed(1)} ms, this ${sum(mine).toFixed(1)} ms (${pct(sum(mine) / sum(base))})`);
