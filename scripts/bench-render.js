#!/usr/bin/env node
// npm run bench:render: screenshots of the median corpus email (../shared/corpus/html by size; a project
// fixture when the corpus is absent), 21 clients x light and dark, on this machine, with the render
// worker's code (libs/render: puppeteer-cluster, WORKER_RENDER_CONCURRENCY browsers, distinct pages once)
// beside a naive reference in the same run: one browser, a new page per screenshot, no deduplication,
// one screenshot at a time. Both paint without remote images (no network here) and with JavaScript off.
// Prints wall time per email (median of BENCH_ROUNDS after a warm-up), distinct renders, ms per
// screenshot and the peak resident memory of the process and its Chromium processes.
// Targets (issue 17): at most 3 s per email and at least 3x faster than the naive reference.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const tasks = require('./lib/tasks');
const { medianEmail } = require('./lib/bench-service');

const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const CONCURRENCY = Number(process.env.WORKER_RENDER_CONCURRENCY || 2);

function treeRssMb(root) {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((row) => row.length === 3);
  const children = new Map();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) || []), pid]);
  const rss = new Map(rows.map(([pid, , kb]) => [pid, kb]));
  let total = rss.get(root) || 0;
  const stack = [...(children.get(root) || [])];
  while (stack.length > 0) {
    const pid = stack.pop();
    total += rss.get(pid) || 0;
    stack.push(...(children.get(pid) || []));
  }
  return total / 1024;
}

function peakSampler() {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, treeRssMb(process.pid))), 100);
  return { stop: () => (clearInterval(timer), Math.max(peak, treeRssMb(process.pid))) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  tasks.build({ quiet: true });
  const dist = path.join(tasks.ROOT, 'dist', 'libs');
  const { renderClientViews } = require(path.join(dist, 'engine', 'src'));
  const { RenderPool, EmailImageLoader, renderEmail, planRenders, chromiumLaunchOptions, RENDER_PAGE_URL } = require(path.join(dist, 'render', 'src'));
  const puppeteer = require('puppeteer-core');
  const email = medianEmail();
  const views = renderClientViews(email.html);
  const modes = ['light', 'dark'];
  const units = planRenders(views, modes);
  const shots = units.reduce((sum, unit) => sum + unit.shots.length, 0);
  console.log(`bench:render: ${email.name} (${Buffer.byteLength(email.html)} bytes), ${views.length} clients x light/dark = ${shots} screenshots, ${units.length} distinct pages; ${ROUNDS} rounds after a warm-up; ${CONCURRENCY} browsers`);

  // Mailproof: the pool as worker-render runs it.
  const pool = await RenderPool.launch({ concurrency: CONCURRENCY, pageTimeoutMs: 60_000, maxHeightPx: 6_000 });
  const sampler = peakSampler();
  const ours = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const started = process.hrtime.bigint();
    const result = await renderEmail(pool, views, modes, new EmailImageLoader(null));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.failed.length > 0) throw new Error(`screenshots failed: ${JSON.stringify(result.failed)}`);
    if (round > 0) ours.push(ms);
  }
  const oursPeak = sampler.stop();
  await pool.close();

  // The naive reference: a new page per screenshot, every client and mode painted, one at a time.
  const browser = await puppeteer.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  const naiveSampler = peakSampler();
  const naive = [];
  const naiveRounds = Math.max(1, Math.ceil(ROUNDS / 2));
  for (let round = 0; round <= naiveRounds; round++) {
    const started = process.hrtime.bigint();
    for (const unit of units) {
      for (const shot of unit.shots) {
        const page = await browser.newPage();
        await page.setJavaScriptEnabled(false);
        await page.setViewport({ width: unit.width, height: 800, deviceScaleFactor: unit.deviceScaleFactor });
        await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: unit.colorScheme }]);
        await page.setRequestInterception(true);
        page.on('request', (request) => (request.url() === RENDER_PAGE_URL ? request.respond({ status: 200, contentType: 'text/html', body: unit.html }) : request.abort()));
        await page.goto(RENDER_PAGE_URL, { waitUntil: 'load' });
        await page.screenshot({ fullPage: true });
        await page.close();
        void shot;
      }
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (round > 0) naive.push(ms);
  }
  const naivePeak = naiveSampler.stop();
  await browser.close();

  const oursMs = median(ours);
  const naiveMs = median(naive);
  console.log('');
  console.log('                       wall/email   ms/screenshot   pages painted   peak RSS (node+chromium)');
  console.log(`  mailproof (pool)     ${(oursMs / 1000).toFixed(2).padStart(7)} s   ${(oursMs / shots).toFixed(0).padStart(9)} ms   ${String(units.length).padStart(8)}        ${oursPeak.toFixed(0)} MB`);
  console.log(`  naive reference      ${(naiveMs / 1000).toFixed(2).padStart(7)} s   ${(naiveMs / shots).toFixed(0).padStart(9)} ms   ${String(shots).padStart(8)}        ${naivePeak.toFixed(0)} MB`);
  console.log('');
  console.log(`  speed-up: ${(naiveMs / oursMs).toFixed(2)}x (target >= 3x); per email ${(oursMs / 1000).toFixed(2)} s (target <= 3 s); rounds: ${ours.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`);
}

main().catch((error) => {
  console.error(`bench:render: ${error.stack || error.message}`);
  process.exit(1);
});
