#!/usr/bin/env node
// npm run bench:share: what a share page and its client picker cost, per email, with the analyzes each API
// keeps (PreviewAnalysisCache, PREVIEW_PAGE_CACHE_MB=64) against an API that decodes the stored result on
// every request (PREVIEW_PAGE_CACHE_MB=0, how it was before). docs/benchmarks.md, "The share page".
//
// One worker-preview and two APIs (built dist, separate processes) over the bench database. Every corpus
// email (../shared/corpus: html, jsx, mjml and maizzle, each in its format; the project's CLI fixtures when it is
// absent) is previewed and shared once; one that cannot be previewed is listed with the API's reason.
// Then, one request at a time, per email and per API: the page's first view, BENCH_REPEATS (10) more views,
// and the picker opening BENCH_CLIENTS (6) clients. Printed per email and over all emails: the medians of
// the response time (loopback: server time, no queueing) and the API's CPU per request (from /proc).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const tasks = require('./lib/tasks');
const { prepareBenchmark, freePort, percentile, waitReady, startServices, createProKey, serviceCpuMs } = require('./lib/bench-service');

const REPEATS = Number(process.env.BENCH_REPEATS || 10);
const CLIENTS = ['gmail-web', 'outlook-windows', 'apple-mail-macos', 'yahoo-mail', 'outlook-web', 'gmail-ios'].slice(0, Number(process.env.BENCH_CLIENTS || 6));

/**
 * Every corpus email, in each of its formats (html, jsx, mjml, maizzle folders of ../shared/corpus), or the
 * project's CLI fixtures when the corpus is absent. None is left out here: an email that cannot be previewed
 * is listed at the end with the API's own reason.
 */
function emails() {
  const corpus = path.join(tasks.ROOT, '..', 'shared', 'corpus');
  const folders = fs.existsSync(corpus)
    ? ['html', 'jsx', 'mjml', 'maizzle'].map((format) => ({ dir: path.join(corpus, format), format: () => format }))
    : [{ dir: path.join(tasks.ROOT, 'test', 'fixtures', 'cli'), format: formatOfFixture }];
  return folders.flatMap(({ dir, format }) =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .sort()
          .filter((file) => /\.(html|tsx|jsx|mjml)$/.test(file))
          .map((file) => ({ name: `${path.basename(dir)}/${file}`, format: format(file), html: fs.readFileSync(path.join(dir, file), 'utf8') }))
      : [],
  );
}

function formatOfFixture(file) {
  if (/\.(tsx|jsx)$/.test(file)) return 'jsx';
  if (file.endsWith('.mjml')) return 'mjml';
  return /maizzle|front-matter/.test(file) ? 'maizzle' : 'html';
}

const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** The response time (ms) of one GET, the body read. */
async function timed(url) {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  return performance.now() - started;
}

(async () => {
  const env = await prepareBenchmark('bench-share', { RATE_LIMIT_PRO: '1000000', RATE_LIMIT_ANONYMOUS: '1000000', PREVIEW_BUDGET_MS: '30000' });
  const keptPort = await freePort();
  const services = startServices({ ...env, PREVIEW_PAGE_CACHE_MB: '64' }, keptPort);
  const plainPort = await freePort();
  const plainApi = spawn(process.execPath, [path.join(tasks.ROOT, 'dist', 'apps', 'api', 'src', 'main.js')], {
    env: { ...env, MIGRATE_ON_START: 'false', PREVIEW_PAGE_CACHE_MB: '0', PORT: String(plainPort), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  const apis = {
    kept: { url: `http://127.0.0.1:${keptPort}`, pid: () => services.pids()[1] },
    plain: { url: `http://127.0.0.1:${plainPort}`, pid: () => plainApi.pid },
  };
  try {
    await waitReady(apis.kept.url, ['preview']);
    await waitReady(apis.plain.url, ['preview']);
    const key = createProKey(env, 'bench-share');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const list = emails();
    const shares = [];
    const notMeasured = [];
    for (const email of list) {
      const answer = await fetch(`${apis.kept.url}/api/preview`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ html: email.html, format: email.format, title: email.name }),
      });
      const preview = await answer.json();
      // Only an analyzed preview (200) has pages to show; a compile failure answers 422 with the stored id.
      if (answer.status !== 200 || !preview.id) {
        notMeasured.push(`${email.name}: HTTP ${answer.status} ${preview.title ?? ''}${preview.detail ? ` (${String(preview.detail).slice(0, 140)})` : ''}`);
        continue;
      }
      const share = await (await fetch(`${apis.kept.url}/api/share`, { method: 'POST', headers, body: JSON.stringify({ previewId: preview.id }) })).json();
      shares.push({ ...email, shareId: share.id });
    }
    console.log(
      `${shares.length} of ${list.length} emails previewed and shared (the others are listed at the end with their reason); per email: first view, ${REPEATS} more views, ${CLIENTS.length} client views; one request at a time`,
    );

    // Each API's requests of one kind, with the API process's CPU (the /proc counters tick every 10 ms, so
    // it is read per kind over all emails, not per request).
    const rows = [];
    const cpu = { kept: { first: 0, repeat: 0, clients: 0 }, plain: { first: 0, repeat: 0, clients: 0 } };
    const counts = { first: 0, repeat: 0, clients: 0 };
    for (const share of shares) {
      const row = { name: share.name };
      for (const [which, api] of Object.entries(apis)) {
        const page = `${api.url}/share/${share.shareId}`;
        let before = serviceCpuMs([api.pid()]);
        const first = await timed(page);
        cpu[which].first += serviceCpuMs([api.pid()]) - before;
        before = serviceCpuMs([api.pid()]);
        const repeats = [];
        for (let i = 0; i < REPEATS; i++) repeats.push(await timed(page));
        cpu[which].repeat += serviceCpuMs([api.pid()]) - before;
        before = serviceCpuMs([api.pid()]);
        const clients = [];
        for (const client of CLIENTS) clients.push(await timed(`${page}/clients/${client}`));
        cpu[which].clients += serviceCpuMs([api.pid()]) - before;
        row[which] = { first, repeat: median(repeats), clients: median(clients) };
      }
      counts.first += 1;
      counts.repeat += REPEATS;
      counts.clients += CLIENTS.length;
      rows.push(row);
    }
    // serviceCpuMs also counts PostgreSQL and Redis; both APIs make the same queries, so the difference is the API's.
    rows.sort((a, b) => b.plain.repeat - a.plain.repeat);
    const f = (v) => v.toFixed(1).padStart(6);
    console.log(`\nresponse time per email (ms), median of its requests; sorted by the page without the cache:`);
    console.log(
      `  ${'email'.padEnd(52)} ${'page: no cache'.padStart(14)} ${'first'.padStart(7)} ${'repeat'.padStart(7)}   ${'client: no cache'.padStart(16)} ${'kept'.padStart(7)}`,
    );
    for (const row of rows)
      console.log(
        `  ${row.name.slice(-52).padEnd(52)} ${f(row.plain.repeat).padStart(14)} ${f(row.kept.first).padStart(7)} ${f(row.kept.repeat).padStart(7)}   ${f(row.plain.clients).padStart(16)} ${f(row.kept.clients).padStart(7)}`,
      );
    const over = (pick) => {
      const values = rows.map(pick).sort((a, b) => a - b);
      return `median ${percentile(values, 50).toFixed(1)}, p95 ${percentile(values, 95).toFixed(1)}, max ${values[values.length - 1].toFixed(1)} ms`;
    };
    console.log(`\nover the ${rows.length} emails (each email's median):`);
    console.log(`  share page, reference (PREVIEW_PAGE_CACHE_MB=0): ${over((r) => r.plain.repeat)}`);
    console.log(`  share page, first view with the cache:           ${over((r) => r.kept.first)}`);
    console.log(`  share page, later views with the cache:          ${over((r) => r.kept.repeat)}`);
    console.log(`  client view, reference:                          ${over((r) => r.plain.clients)}`);
    console.log(`  client view with the cache:                      ${over((r) => r.kept.clients)}`);
    const perRequest = (which, kind) => (cpu[which][kind] / counts[kind]).toFixed(1);
    console.log(
      `\nCPU per request of the API, PostgreSQL and Redis (ms; /proc, 10 ms ticks, averaged over ${counts.repeat} repeats / ${counts.clients} client views):`,
    );
    console.log(`  later page views: reference ${perRequest('plain', 'repeat')}, with the cache ${perRequest('kept', 'repeat')}`);
    console.log(`  client views:     reference ${perRequest('plain', 'clients')}, with the cache ${perRequest('kept', 'clients')}`);
    console.log(
      `  first views:      reference ${perRequest('plain', 'first')}, with the cache ${perRequest('kept', 'first')} (the cache decodes on the first view as the reference does)`,
    );
    console.log(`\nnot measured: ${notMeasured.length} of ${list.length}${notMeasured.length ? ', each with the reason the API gave:' : ''}`);
    for (const line of notMeasured) console.log(`  ${line}`);
  } finally {
    plainApi.kill('SIGTERM');
    await services.stop();
  }
})().catch((error) => {
  console.error(`bench:share: ${error.stack || error.message}`);
  process.exit(1);
});
