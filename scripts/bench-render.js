#!/usr/bin/env node
// npm run bench:render: screenshots of the median corpus email (../shared/corpus/html by size; a project
// fixture when the corpus is absent), 21 clients x light and dark, on this machine, with the render
// worker's code (libs/render: puppeteer-cluster, WORKER_RENDER_CONCURRENCY browsers, distinct pages once)
// beside a naive reference in the same run: one browser, a new page per screenshot, no deduplication,
// one screenshot at a time; and puppeteer-cluster as its README sets it up (its default concurrency model,
// CONCURRENCY_CONTEXT: one browser, a fresh incognito context and page per task, WORKER_RENDER_CONCURRENCY
// tasks at once), once over every screenshot and once over the same distinct pages as ours, so the gain
// splits into what deduplication brings and what the pool's own model (a browser per slot, pages reused)
// brings. All paint without remote images (no network here) and with JavaScript off.
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

/** One page painted as the references do it: a fresh page set up from scratch, loaded and screenshotted. */
async function paintFresh(page, unit, RENDER_PAGE_URL) {
  await page.setJavaScriptEnabled(false);
  await page.setViewport({ width: unit.width, height: 800, deviceScaleFactor: unit.deviceScaleFactor });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: unit.colorScheme }]);
  await page.setRequestInterception(true);
  page.on('request', (request) =>
    request.url() === RENDER_PAGE_URL ? request.respond({ status: 200, contentType: 'text/html', body: unit.html }) : request.abort(),
  );
  await page.goto(RENDER_PAGE_URL, { waitUntil: 'load' });
  await page.screenshot({ fullPage: true });
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
  console.log(
    `bench:render: ${email.name} (${Buffer.byteLength(email.html)} bytes), ${views.length} clients x light/dark = ${shots} screenshots, ${units.length} distinct pages; up to ${ROUNDS} rounds per variant, alternating, each after a warm-up; ${CONCURRENCY} browsers`,
  );

  // Each variant is set up, warmed up with one untimed paint of the whole email, timed once and closed, in
  // turn, round after round (the order rotating), so a busy machine slows every variant alike; the peak
  // resident memory is sampled during each variant's timed paint, with only its own browsers running.
  const { Cluster } = require('puppeteer-cluster');
  const everyShot = units.flatMap((unit) => unit.shots.map(() => unit));
  const defaultCluster = (work) => async () => {
    // puppeteer-cluster with its defaults: no `concurrency` option means CONCURRENCY_CONTEXT.
    const cluster = await Cluster.launch({
      puppeteer,
      maxConcurrency: CONCURRENCY,
      puppeteerOptions: chromiumLaunchOptions(process.env.CHROMIUM_PATH),
      monitor: false,
    });
    await cluster.task(({ page, data }) => paintFresh(page, data, RENDER_PAGE_URL));
    return {
      paint: () => Promise.all(work.map((unit) => cluster.execute(unit))),
      close: async () => (await cluster.idle(), await cluster.close()),
    };
  };
  const variants = [
    {
      label: 'mailproof (pool)',
      pages: units.length,
      rounds: ROUNDS,
      setUp: async () => {
        // The pool as worker-render runs it.
        const pool = await RenderPool.launch({ concurrency: CONCURRENCY, pageTimeoutMs: 60_000, maxHeightPx: 6_000 });
        return {
          paint: async () => {
            const result = await renderEmail(pool, views, modes, new EmailImageLoader(null));
            if (result.failed.length > 0) throw new Error(`screenshots failed: ${JSON.stringify(result.failed)}`);
          },
          close: () => pool.close(),
        };
      },
    },
    {
      label: 'naive reference',
      pages: shots,
      rounds: Math.max(1, Math.ceil(ROUNDS / 2)),
      setUp: async () => {
        // One browser, a new page per screenshot, every client and mode painted, one at a time.
        const browser = await puppeteer.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
        return {
          paint: async () => {
            for (const unit of everyShot) {
              const page = await browser.newPage();
              await paintFresh(page, unit, RENDER_PAGE_URL);
              await page.close();
            }
          },
          close: () => browser.close(),
        };
      },
    },
    { label: 'cluster default, all', pages: shots, rounds: Math.max(1, Math.ceil(ROUNDS / 2)), setUp: defaultCluster(everyShot) },
    { label: 'cluster default, distinct', pages: units.length, rounds: ROUNDS, setUp: defaultCluster(units) },
  ];
  for (const variant of variants) Object.assign(variant, { times: [], peak: 0 });
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < variants.length; turn++) {
      const variant = variants[(round + turn) % variants.length];
      if (variant.times.length >= variant.rounds) continue;
      const running = await variant.setUp();
      await running.paint();
      const sampler = peakSampler();
      const started = process.hrtime.bigint();
      await running.paint();
      variant.times.push(Number(process.hrtime.bigint() - started) / 1e6);
      variant.peak = Math.max(variant.peak, sampler.stop());
      await running.close();
    }
  }

  const [ours, naive, clusterEvery, clusterDistinct] = variants.map((variant) => ({ ...variant, ms: median(variant.times) }));
  console.log('');
  console.log('                             wall/email   ms/screenshot   pages painted   peak RSS (node+chromium)   rounds');
  for (const row of [ours, naive, clusterEvery, clusterDistinct]) {
    console.log(
      `  ${row.label.padEnd(25)}  ${(row.ms / 1000).toFixed(2).padStart(7)} s   ${(row.ms / shots).toFixed(0).padStart(9)} ms   ${String(row.pages).padStart(8)}        ${row.peak.toFixed(0).padStart(6)} MB               ${row.times.length}`,
    );
  }
  console.log('');
  console.log(
    `  speed-up: ${(naive.ms / ours.ms).toFixed(2)}x over the naive reference (target >= 3x); over puppeteer-cluster's default model ${(clusterEvery.ms / ours.ms).toFixed(2)}x painting every screenshot, ${(clusterDistinct.ms / ours.ms).toFixed(2)}x painting the same distinct pages (the pool's own model alone)`,
  );
  console.log(`  per email ${(ours.ms / 1000).toFixed(2)} s (target <= 3 s); rounds: ${ours.times.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s`);
}

main().catch((error) => {
  console.error(`bench:render: ${error.stack || error.message}`);
  process.exit(1);
});
