#!/usr/bin/env node
// npm run bench:visual: what the visual divergence (issue 42, docs/visual.md) costs per email, on this machine.
//
// 1. Divergence cost. A sample of corpus emails (BENCH_CORPUS_DIR, else shared/corpus/html beside the checkout or
//    one of its parents, so a worktree finds it too; BENCH_VISUAL_EMAILS of them,
//    default 6, spread evenly over the files sorted by size; a project fixture when the corpus is absent),
//    every client x light/dark, each painted two ways with the render worker's code in one pool
//    (WORKER_RENDER_CONCURRENCY browsers, no remote images):
//      - screenshots alone: renderEmail + renderedReports as before issue 42 (no reference, no element
//        measurements, the old visualReport);
//      - screenshots + divergence: the reference rendering added (per viewport and scheme), every page
//        measured element by element, and visualReport.divergence computed.
//    Per email, after one untimed warm-up of each, BENCH_VISUAL_ROUNDS timed rounds (default 2) of each,
//    alternating; the median of each. Prints both per email, the overhead, and the mean overhead beside
//    the target (<= 25% more than the screenshots alone), in wall time and in CPU time of this process and
//    its browsers (from /proc; on a shared machine the CPU time is the steadier measure). The divergence's
//    own computing time (decodes, pixelmatch, regions) is printed apart from the painting.
//    BENCH_VISUAL_SECONDS (default 300) bounds the whole run: emails not reached are listed as skipped.
// 2. The gate's p95 with `visual` at 4 connections (scripts/lib/bench-gate-visual.js): the built api,
//    worker-preview and worker-render as processes; the median corpus email (found the same way) gated with
//    `checks: ["compatibility", "visual"]` against a measured baseline, BENCH_VISUAL_GATE_RUNS (40) requests by
//    4 connections, then the same without `visual`; p50/p95/max of each (docs/gate.md, "The visual check").
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tasks = require('./lib/tasks');
const { benchGateVisual } = require('./lib/bench-gate-visual');
const { corpusHtmlDir } = require('./lib/bench-service');

const SAMPLE = Number(process.env.BENCH_VISUAL_EMAILS || 6);
const ROUNDS = Number(process.env.BENCH_VISUAL_ROUNDS || 2);
const BUDGET_MS = Number(process.env.BENCH_VISUAL_SECONDS || 300) * 1000;
const CONCURRENCY = Number(process.env.WORKER_RENDER_CONCURRENCY || 2);
const TARGET_OVERHEAD = 0.25;

/**
 * CPU time (ms) used so far by this process and every process under it (the browsers, their renderers),
 * from /proc: what an email costs on a machine shared with others, where wall time mostly measures the
 * others. Children that ended count through their parent's cutime/cstime. null off Linux.
 */
function treeCpuMs() {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const stats = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // After the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) });
    } catch {
      // The process ended while being read.
    }
  }
  const children = new Map();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) || []), pid]);
  let ticks = 0;
  const stack = [process.pid];
  while (stack.length > 0) {
    const pid = stack.pop();
    ticks += stats.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) || []));
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percent = (from, to) => `${to >= from ? '+' : ''}${(((to - from) / from) * 100).toFixed(1)}%`;
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

/** The emails measured: an even spread over the corpus by size (the same files every run). */
function sampleEmails() {
  // BENCH_CORPUS_DIR, or shared/corpus/html beside the checkout or one of its parents (a worktree too).
  const corpus = corpusHtmlDir();
  if (!corpus) {
    const fixture = path.join(tasks.ROOT, 'test', 'fixtures', 'cli', 'clean.html');
    return [{ name: 'test/fixtures/cli/clean.html (corpus absent)', html: fs.readFileSync(fixture, 'utf8') }];
  }
  const files = fs
    .readdirSync(corpus)
    .filter((file) => file.endsWith('.html'))
    .map((file) => ({ file, size: fs.statSync(path.join(corpus, file)).size }))
    .sort((a, b) => a.size - b.size || a.file.localeCompare(b.file));
  const count = Math.min(SAMPLE, files.length);
  const picked = Array.from({ length: count }, (_, index) => files[Math.floor(((index + 0.5) * files.length) / count)]);
  return picked.map(({ file }) => ({ name: `corpus/html/${file}`, html: fs.readFileSync(path.join(corpus, file), 'utf8') }));
}

/** The distinct pages a render painted (a dark page that took its light twin's page is not one). */
const pagesPainted = (result) => new Set([...result.painted.values(), ...result.references.values()].map((shot) => shot.page)).size;

/** 1. Screenshots alone against screenshots + divergence, per email of the sample. */
async function divergenceCost({ dist, deadline }) {
  const { renderEmailViews } = require(path.join(dist, 'engine', 'src'));
  const { RenderPool, EmailImageLoader, renderEmail, renderedReports } = require(path.join(dist, 'render', 'src'));
  const modes = ['light', 'dark'];
  const emails = sampleEmails();
  console.log(
    `bench:visual: divergence cost, ${emails.length} email(s) of the corpus (an even spread by size), every client x light/dark, ${CONCURRENCY} browsers, ${ROUNDS} timed round(s) of each way per email after a warm-up; load average ${load()}`,
  );
  const pool = await RenderPool.launch({ concurrency: CONCURRENCY, pageTimeoutMs: 60_000, maxHeightPx: 6_000 });
  const rows = [];
  const skipped = [];
  try {
    const alone = async (views, clients) => {
      const result = await renderEmail(pool, views.clients, modes, new EmailImageLoader(null));
      renderedReports(result.painted, clients, modes);
      return { pages: pagesPainted(result), divergenceMs: 0 };
    };
    const withDivergence = async (views, clients) => {
      const result = await renderEmail(pool, views.clients, modes, new EmailImageLoader(null), views.reference);
      const started = process.hrtime.bigint();
      const reports = renderedReports(result.painted, clients, modes, { references: result.references, comparisons: result.comparisons });
      const divergenceMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (!reports.visualReport || !reports.visualReport.divergence) throw new Error('no divergence computed');
      return { pages: pagesPainted(result), divergenceMs };
    };
    for (const email of emails) {
      if (Date.now() > deadline) {
        skipped.push(email.name);
        continue;
      }
      const views = renderEmailViews(email.html);
      const clients = views.clients.map((view) => view.clientId);
      await alone(views, clients);
      await withDivergence(views, clients);
      const times = { alone: [], divergence: [], cpu: [], cpuAlone: [], cpuDivergence: [] };
      let pages = { alone: 0, divergence: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? ['alone', 'divergence'] : ['divergence', 'alone'];
        for (const way of order) {
          const cpuBefore = treeCpuMs();
          const started = process.hrtime.bigint();
          const outcome = way === 'alone' ? await alone(views, clients) : await withDivergence(views, clients);
          times[way].push(Number(process.hrtime.bigint() - started) / 1e6);
          if (cpuBefore !== null) times[way === 'alone' ? 'cpuAlone' : 'cpuDivergence'].push(treeCpuMs() - cpuBefore);
          if (way === 'divergence') times.cpu.push(outcome.divergenceMs);
          pages[way] = outcome.pages;
        }
      }
      const row = {
        name: email.name,
        alone: median(times.alone),
        divergence: median(times.divergence),
        cpu: median(times.cpu),
        cpuAlone: times.cpuAlone.length > 0 ? median(times.cpuAlone) : null,
        cpuDivergence: times.cpuDivergence.length > 0 ? median(times.cpuDivergence) : null,
        pages,
      };
      rows.push(row);
      const cpu =
        row.cpuAlone === null
          ? ''
          : `   CPU ${(row.cpuAlone / 1000).toFixed(2)} s -> ${(row.cpuDivergence / 1000).toFixed(2)} s ${percent(row.cpuAlone, row.cpuDivergence)}`;
      console.log(
        `  ${row.name.padEnd(58)} wall ${(row.alone / 1000).toFixed(2).padStart(5)} s (${String(pages.alone).padStart(2)} pages) -> ${(row.divergence / 1000).toFixed(2).padStart(5)} s (${String(pages.divergence).padStart(2)} pages; divergence ${row.cpu.toFixed(0)} ms) ${percent(row.alone, row.divergence)}${cpu}`,
      );
    }
  } finally {
    await pool.close();
  }
  if (rows.length === 0) {
    console.log('  no email measured within BENCH_VISUAL_SECONDS');
    return;
  }
  const mean = (key) => rows.reduce((sum, row) => sum + row[key], 0) / rows.length;
  const verdict = (from, to) => `${percent(from, to)} (target <= +${TARGET_OVERHEAD * 100}%: ${(to - from) / from <= TARGET_OVERHEAD ? 'met' : 'NOT met'})`;
  console.log('');
  console.log(
    `  per email (mean of ${rows.length}), wall: screenshots alone ${(mean('alone') / 1000).toFixed(2)} s, with divergence ${(mean('divergence') / 1000).toFixed(2)} s: ${verdict(mean('alone'), mean('divergence'))}; divergence computing ${median(rows.map((row) => row.cpu)).toFixed(0)} ms median`,
  );
  if (rows.every((row) => row.cpuAlone !== null))
    console.log(
      `  per email (mean of ${rows.length}), CPU of node and the browsers: screenshots alone ${(mean('cpuAlone') / 1000).toFixed(2)} s, with divergence ${(mean('cpuDivergence') / 1000).toFixed(2)} s: ${verdict(mean('cpuAlone'), mean('cpuDivergence'))}`,
    );
  console.log(`  load average now ${load()} (${os.cpus().length} CPUs): wall times under load are noisy; CPU times less so`);
  if (skipped.length > 0) console.log(`  skipped at the time limit (BENCH_VISUAL_SECONDS): ${skipped.join(', ')}`);
}

/**
 * What bench:visual measures, in order; each entry prints its own lines. The gate's p95 with `visual`
 * at 4 connections (issue 42) joins this list as a second entry.
 */
// 2. The gate with `visual` at 4 connections (scripts/lib/bench-gate-visual.js: the service as processes).
const MEASUREMENTS = [divergenceCost, () => benchGateVisual()];

async function main() {
  tasks.build({ quiet: true });
  const context = { dist: path.join(tasks.ROOT, 'dist', 'libs'), deadline: Date.now() + BUDGET_MS };
  for (const measure of MEASUREMENTS) await measure(context);
}

main().catch((error) => {
  console.error(`bench:visual: ${error.stack || error.message}`);
  process.exit(1);
});
