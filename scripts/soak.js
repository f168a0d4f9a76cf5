#!/usr/bin/env node
// npm run soak: the deployment under mixed traffic for SOAK_MINUTES (10) at half of its measured capacity
// (docs/benchmarks.md, "The soak"). Not part of CI or `npm test`.
//
// Starts the built apps as separate processes (SOAK_APIS APIs, one worker-preview, worker-render,
// worker-dns and scheduler) over PostgreSQL and Redis, unbound on loopback for the DNS audits (the
// fixture zones of test/utils/dns-fixture-zones.ts) and a loopback webhook receiver for the gates'
// events. Traffic: previews of corpus emails (../shared/corpus/html, else the project's fixtures), a few
// of them with screenshots (one client), gates, DNS audits, shares created, share pages read (a fixed set: one per email),
// dashboard pages with a signed-in session, five monitored domains audited by the scheduler every minute.
//
// 1. Capacity: SOAK_CONNECTIONS (8) closed loops run the mix for SOAK_CAPACITY_SECONDS (30); the mix's
//    requests per second is the capacity (or take it from SOAK_CAPACITY and skip this).
// 2. Warm-up: SOAK_WARMUP_SECONDS (60) of open-loop traffic at half the capacity (SOAK_LOAD, 0.5).
// 3. Steady: SOAK_MINUTES at that rate. Printed: each process's RSS at the start and the end (medians of
//    the first and the last minute's 10 s samples; target < 10% growth), p95 per route per minute with its
//    least-squares slope and 95% interval (target: no upward trend), each process's CPU per answered request
//    per minute with the same slope (a per-request cost that grows), and
//    errors per route (target 0: any status other than the route's success, a network error, a request
//    shed because SOAK_MAX_IN_FLIGHT were already waiting, a process that exited).
// Exit code 1 when there were errors or a process's RSS grew by 10% or more.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const http = require('node:http');
const tasks = require('./lib/tasks');
const { prepareBenchmark, freePort, percentile, waitReady, createProKey, signIn, statCpuMs } = require('./lib/bench-service');
const { loadDnsFixtures } = require('./lib/test-helpers');

const MINUTES = Number(process.env.SOAK_MINUTES || 10);
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS || 60);
const CAPACITY_SECONDS = Number(process.env.SOAK_CAPACITY_SECONDS || 30);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS || 8);
const LOAD = Number(process.env.SOAK_LOAD || 0.5);
const APIS = Number(process.env.SOAK_APIS || 1);
const MAX_IN_FLIGHT = Number(process.env.SOAK_MAX_IN_FLIGHT || 64);
const WORKERS = ['worker-preview', 'worker-render', 'worker-dns', 'scheduler'];
const DOMAINS = ['healthy.test', 'dmarc-none.test', 'no-bimi.test', 'weak-dkim.test', 'two-spf.test', 'spf-macro.test', 'null-mx.test', 'implicit-mx.test'];

/** The emails previewed: every corpus HTML email (or the fixtures), cycled through. */
function emails() {
  const corpus = path.join(tasks.ROOT, '..', 'shared', 'corpus', 'html');
  const dir = fs.existsSync(corpus) ? corpus : path.join(tasks.ROOT, 'test', 'fixtures', 'cli');
  const files = fs.readdirSync(dir).filter((file) => file.endsWith('.html') && !file.includes('maizzle') && !file.includes('front-matter'));
  return {
    source: dir === corpus ? `../shared/corpus/html (${files.length} emails)` : `test/fixtures/cli (${files.length} emails, corpus absent)`,
    list: files.map((file) => fs.readFileSync(path.join(dir, file), 'utf8')),
  };
}

/**
 * RSS (kB) of a process, of it with all its descendants (compile processes, Chromium), and its thread count
 * (worker-preview's analysis threads, each with its own heap, come and go: piscina's idle timeout), from /proc.
 */
function rss(pid) {
  const status = (p) => {
    try {
      return fs.readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      return '';
    }
  };
  const read = (p) => Number(/VmRSS:\s+(\d+)/.exec(status(p))?.[1] ?? 0);
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while the tree was read
    }
  }
  const tree = (p) => read(p) + (parents.get(p) ?? []).reduce((sum, child) => sum + tree(child), 0);
  return { own: read(pid), tree: tree(pid), threads: Number(/Threads:\s+(\d+)/.exec(status(pid))?.[1] ?? 0) };
}

/** Two-sided 95% quantiles of Student's t for 1-30 degrees of freedom (past 30: the normal's 1.96). */
const T_95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * Least-squares slope of ys over 0..n-1 with its 95% confidence interval. A p95 of one minute rests on tens
 * of requests, so it moves by tens of percent between minutes on its own; a slope says "rising" only when
 * its interval lies above zero. Each series has a 2.5% chance of that with no trend at all; over 11 routes
 * and 5 processes, about one run in three shows one such series by chance: a real trend is one that comes
 * back run after run (docs/benchmarks.md, "The soak").
 */
function trend(ys) {
  const points = ys.map((y, x) => [x, y]).filter(([, y]) => Number.isFinite(y));
  const n = points.length;
  if (n < 3) return { slope: NaN, low: NaN, high: NaN, mean: NaN };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0) / sxx;
  const residuals = points.reduce((s, [x, y]) => s + (y - my - slope * (x - mx)) ** 2, 0);
  const margin = (T_95[n - 3] ?? 1.96) * Math.sqrt(residuals / (n - 2) / sxx);
  return { slope, low: slope - margin, high: slope + margin, mean: my };
}

/** "+1.2 ms/min (+3.4%/min, 95%: -0.5..+7.1%/min)" and whether the whole interval is above zero. */
function describeTrend(ys, unit) {
  const t = trend(ys);
  if (!Number.isFinite(t.slope)) return { text: '-', rising: false };
  const pct = (v) => `${v >= 0 ? '+' : ''}${((v / t.mean) * 100).toFixed(1)}`;
  return { text: `${t.slope >= 0 ? '+' : ''}${t.slope.toFixed(1)} ${unit}/min (${pct(t.slope)}%/min, 95%: ${pct(t.low)}..${pct(t.high)})`, rising: t.low > 0 };
}

function startApp(kind, env, logDir, extra = {}) {
  const log = fs.openSync(path.join(logDir, `${kind}-${Object.keys(extra).length ? extra.PORT : 'worker'}.log`), 'a');
  const child = spawn(process.execPath, [path.join(tasks.ROOT, 'dist', 'apps', kind, 'src', 'main.js')], {
    env: { ...env, ...extra },
    stdio: ['ignore', log, log],
  });
  return { kind, child, log: path.join(logDir, `${kind}-${Object.keys(extra).length ? extra.PORT : 'worker'}.log`) };
}

async function stopApps(apps) {
  const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));
  // APIs first (no new work), then the workers finish what they hold.
  for (const group of [apps.filter((a) => a.kind === 'api'), apps.filter((a) => a.kind !== 'api')]) {
    for (const app of group) app.child.kill('SIGTERM');
    const killer = setTimeout(() => group.forEach((app) => app.child.kill('SIGKILL')), 20_000);
    await Promise.all(group.map((app) => exited(app.child)));
    clearTimeout(killer);
  }
}

/** The loopback DNS server (when unbound is installed) and the webhook receiver, counting what it receives. */
async function startFixtureServers() {
  const { UnboundServer, unboundAvailable, deliverabilityFixtures } = loadDnsFixtures();
  const unbound = unboundAvailable() ? await UnboundServer.start(deliverabilityFixtures()) : null;
  const hooks = { received: 0 };
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hooks.received++;
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return { unbound, receiver, hooks };
}

/** The apps' environment: limits out of the way of the traffic, a DNS audit every minute, the loopback DNS server. */
function soakEnvironment(unbound) {
  return prepareBenchmark('soak', {
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PRO: '1000000',
    // Share pages are read without a key, all from this one address: at the default 30 per minute per
    // address the first 10-minute run counted ~19 correct 429s a minute as errors.
    RATE_LIMIT_ANONYMOUS: '1000000',
    DASHBOARD_SIGN_IN_LIMIT: '1000',
    DOMAIN_AUDIT_INTERVAL: '1m',
    WORKER_RENDER_CONCURRENCY: '1',
    RENDER_IMAGES: 'false',
    SSRF_ALLOWED_ADDRESSES: '127.0.0.1',
    ...(unbound ? { DNS_SERVERS: unbound.dohServer, DNS_PROTOCOL: 'http', DNS_TIMEOUT_MS: '2000', DNS_TRIES: '2' } : {}),
  });
}

/**
 * Starts SOAK_APIS APIs and the workers into `deployment.apps` (an exit is noted in `deployment.exits`) and
 * waits until they are ready. Returns the APIs' base URLs.
 */
async function startDeployment(env, deployment) {
  const { apps, exits, logDir } = deployment;
  // The first API migrates; everything else starts on the migrated database.
  const ports = [];
  for (let i = 0; i < APIS; i++) {
    const port = await freePort();
    ports.push(port);
    apps.push(startApp('api', { ...env, MIGRATE_ON_START: i === 0 ? 'true' : 'false' }, logDir, { PORT: String(port), HOST: '127.0.0.1' }));
    if (i === 0) await waitLive(`http://127.0.0.1:${port}`);
  }
  for (const kind of WORKERS) apps.push(startApp(kind, { ...env, MIGRATE_ON_START: 'false' }, logDir));
  for (const app of apps) app.child.once('exit', (code, signal) => exits.push(`${app.kind} (pid ${app.child.pid}) exited ${code ?? signal}; log ${app.log}`));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  // Generous: six processes starting at once on a busy machine.
  await waitReady(urls[0], ['preview', 'gate', 'render', 'dns-audit', 'webhook', 'scheduler'], 180_000);
  for (const url of urls.slice(1)) await waitLive(url);
  return urls;
}

/** A Pro key for the traffic (its account noted in `deployment.accountId`, deleted at the end) and a dashboard session. */
async function createSoakAccount(env, db, urls, deployment) {
  const key = createProKey(env, 'soak');
  const keyHash = require('node:crypto').createHash('sha256').update(key).digest();
  deployment.accountId = (await db.query('SELECT account_id FROM api_keys WHERE key_hash = $1', [keyHash])).rows[0].account_id;
  const cookie = await signIn(urls[0], key);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const post = (url, route, body) => fetch(`${url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { cookie, post };
}

/** A response's JSON when it succeeded, else its status and the start of its text. */
async function jsonOrStatus(res) {
  return res.status === 200 || res.status === 201 ? res.json() : { status: res.status, text: (await res.text()).slice(0, 200) };
}

/** The gates' webhook endpoint and, with the DNS server, five monitored domains the scheduler audits. */
async function subscribeAndMonitor(api, urls, receiver, unbound) {
  const hook = await api.post(urls[0], '/api/webhooks', {
    url: `http://127.0.0.1:${receiver.address().port}/hooks`,
    events: ['gate.failed', 'gate.passed', 'domain.drift', 'domain.status_changed'],
  });
  if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${await hook.text()}`);
  if (unbound) for (const domain of DOMAINS.slice(0, 5)) await api.post(urls[0], '/api/domains', { domain });
}

/**
 * The fixed set of shares the share-page reads pick from, one per email, made here. A share page's cost
 * follows its email (4-47 ms alone on this machine, docs/benchmarks.md), so reads over shares made during the
 * run measure whichever emails they happen to hold at the time: session 8's rising share-page p95 could not
 * tell that from a per-request cost that grows. A fixed set compares like with like from minute to minute;
 * POST /api/share still makes new shares throughout.
 */
async function makeShares(api, urls, mail) {
  const shareIds = [];
  for (const html of mail.list) {
    const preview = await jsonOrStatus(await api.post(urls[0], '/api/preview', { html, title: 'soak share' }));
    const share = preview.id ? await jsonOrStatus(await api.post(urls[0], '/api/share', { previewId: preview.id })) : preview;
    if (!share.id) throw new Error(`a share for the share-page reads: ${JSON.stringify(share)}`);
    shareIds.push(share.id);
  }
  // Each API's page cache (PreviewAnalysisCache) starts full, as in a service that has been running: it
  // fills up to PREVIEW_PAGE_CACHE_MB by design, and filling it during the steady part would read as growth.
  for (const url of urls) for (const id of shareIds) await (await fetch(`${url}/share/${id}`)).arrayBuffer();
  return shareIds;
}

/**
 * The mix: [route, weight, success status, request], each request resolving to the response's status, and
 * `one()`, its next request (see interleave). Reads pick from the newest 50 previews and the fixed set of shares.
 */
function trafficMix(api, urls, mail, shareIds, unbound) {
  const { post, cookie } = api;
  const previewIds = [];
  const remember = (list, id) => {
    list.push(id);
    if (list.length > 50) list.shift();
  };
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  let n = 0;
  let apiTurn = 0;
  const nextUrl = () => urls[apiTurn++ % urls.length];
  const nextEmail = () => mail.list[n++ % mail.list.length];

  const page = (pathOf) => async () => fetch(`${nextUrl()}${pathOf()}`, { headers: { cookie }, redirect: 'manual' });
  const mix = [
    [
      'POST /api/preview',
      30,
      200,
      async () => {
        const res = await post(nextUrl(), '/api/preview', { html: nextEmail(), title: `soak ${n}` });
        const body = await jsonOrStatus(res);
        if (body.id) remember(previewIds, body.id);
        return res.status;
      },
    ],
    [
      'POST /api/preview screenshots',
      2,
      200,
      async () =>
        (
          await post(nextUrl(), '/api/preview', { html: nextEmail(), clients: ['gmail-web'], screenshots: true }).then(
            async (res) => (await res.arrayBuffer(), res),
          )
        ).status,
    ],
    [
      'POST /api/gate',
      8,
      200,
      async () => (await post(nextUrl(), '/api/gate', { html: nextEmail(), ref: `soak/${n % 5}` }).then(async (res) => (await res.arrayBuffer(), res))).status,
    ],
    ...(unbound
      ? [
          [
            'POST /api/deliverability',
            10,
            200,
            async () => (await post(nextUrl(), '/api/deliverability', { domain: pick(DOMAINS) }).then(async (res) => (await res.arrayBuffer(), res))).status,
          ],
        ]
      : []),
    [
      'POST /api/share',
      4,
      201,
      async () => {
        if (previewIds.length === 0) return 201;
        const res = await post(nextUrl(), '/api/share', { previewId: pick(previewIds) });
        await res.arrayBuffer();
        return res.status;
      },
    ],
    ['GET /share/:id', 16, 200, async () => (await fetch(`${nextUrl()}/share/${pick(shareIds)}`).then(async (res) => (await res.arrayBuffer(), res))).status],
    ['GET /app', 6, 200, () => page(() => '/app')().then(async (res) => (await res.arrayBuffer(), res.status))],
    ['GET /app/previews', 6, 200, () => page(() => '/app/previews')().then(async (res) => (await res.arrayBuffer(), res.status))],
    [
      'GET /app/previews/:id',
      6,
      200,
      () => (previewIds.length === 0 ? 200 : page(() => `/app/previews/${pick(previewIds)}`)().then(async (res) => (await res.arrayBuffer(), res.status))),
    ],
    ['GET /app/domains', 6, 200, () => page(() => '/app/domains')().then(async (res) => (await res.arrayBuffer(), res.status))],
    ['GET /app/gate', 6, 200, () => page(() => '/app/gate')().then(async (res) => (await res.arrayBuffer(), res.status))],
  ];
  const total = mix.reduce((sum, [, weight]) => sum + weight, 0);
  return { mix, total, one: interleave(mix) };
}

/**
 * The mix's requests in a fixed interleaving (weights as counts, spread out), so that every stretch of traffic
 * has the same mix. Returns `one()`: the next request, resolving to its route, latency, and error (null when it
 * answered the route's success).
 */
function interleave(mix) {
  const order = mix
    .flatMap((entry) => Array.from({ length: entry[1] }, (_, i) => ({ entry, at: (i + 0.5) / entry[1] })))
    .sort((a, b) => a.at - b.at)
    .map(({ entry }) => entry);
  let turn = 0;
  return async () => {
    const [route, , ok, send] = order[turn++ % order.length];
    const started = performance.now();
    try {
      const status = await send();
      return { route, ms: performance.now() - started, error: status === ok ? null : `HTTP ${status}` };
    } catch (error) {
      return { route, ms: performance.now() - started, error: error.cause?.code ?? error.message };
    }
  };
}

/** 1. Capacity: closed loops, a request as soon as the last one ended (or SOAK_CAPACITY). */
async function measureCapacity(one) {
  const given = Number(process.env.SOAK_CAPACITY || 0);
  if (given) {
    console.log(`capacity: ${given} requests/s (SOAK_CAPACITY)`);
    return given;
  }
  let done = 0;
  const failed = [];
  const until = Date.now() + CAPACITY_SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const result = await one();
        if (result.error) failed.push(`${result.route}: ${result.error}`);
        else done++;
      }
    }),
  );
  const capacity = done / ((Date.now() - started) / 1000);
  console.log(
    `capacity: ${capacity.toFixed(2)} requests/s of the mix (${CONNECTIONS} closed loops, ${CAPACITY_SECONDS} s, ${failed.length} errors${failed.length ? `: ${[...new Set(failed)].slice(0, 5).join('; ')}` : ''})`,
  );
  return capacity;
}

/**
 * The open loop: a request of the mix every 1/rate s, none while SOAK_MAX_IN_FLIGHT are waiting (shed). From
 * `steadyStart` on it records each answer's latency per route per minute, or its error.
 */
class OpenLoop {
  constructor(one, rate) {
    this.one = one;
    this.rate = rate;
    /** route -> [minute -> latencies] */
    this.perMinute = new Map();
    /** route -> { count, samples } */
    this.errors = new Map();
    this.inFlight = 0;
    this.shed = 0;
    this.steadyStart = Infinity;
    this.pending = new Set();
  }

  record(result, at) {
    if (at < this.steadyStart) return;
    const minute = Math.floor((at - this.steadyStart) / 60_000);
    if (minute >= MINUTES) return;
    if (result.error) {
      const entry = this.errors.get(result.route) ?? { count: 0, samples: new Set() };
      entry.count++;
      if (entry.samples.size < 3) entry.samples.add(result.error);
      this.errors.set(result.route, entry);
      return;
    }
    const minutes = this.perMinute.get(result.route) ?? Array.from({ length: MINUTES }, () => []);
    minutes[minute].push(result.ms);
    this.perMinute.set(result.route, minutes);
  }

  async runFor(seconds) {
    const started = Date.now();
    for (let i = 0; Date.now() - started < seconds * 1000; i++) {
      const due = started + (i * 1000) / this.rate;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      if (Date.now() - started >= seconds * 1000) break;
      if (this.inFlight >= MAX_IN_FLIGHT) {
        if (Date.now() >= this.steadyStart) this.shed++;
        continue;
      }
      const at = Date.now();
      this.inFlight++;
      const request = this.one().then((result) => {
        this.inFlight--;
        this.record(result, at);
      });
      this.pending.add(request);
      request.finally(() => this.pending.delete(request));
    }
  }

  /** Requests answered (with the route's success) in a minute of the steady part. */
  answeredIn(minute) {
    return [...this.perMinute.values()].reduce((sum, minutes) => sum + minutes[minute].length, 0);
  }

  errorCount() {
    return [...this.errors.values()].reduce((sum, e) => sum + e.count, 0);
  }
}

const processesOf = (apps) => apps.map((app) => ({ name: `${app.kind} ${app.child.pid}`, pid: app.child.pid }));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * 2 and 3. The open loop at its rate: warm-up, then the steady part, minute by minute, with each process's RSS
 * every 10 s and CPU every minute. Returns the RSS at the start and the end, the CPU readings, and the number of
 * processes that had exited before the steady part.
 */
async function runWarmUpAndSteady(loop, apps, exits) {
  console.log(`warm-up: ${WARMUP_SECONDS} s`);
  await loop.runFor(WARMUP_SECONDS);
  // RSS sampled every 10 s; "start" and "end" are the medians of the first and the last minute's samples
  // (one reading may catch a process just before or after a garbage collection).
  const rssSamples = [];
  const sampleRss = () => rssSamples.push({ at: Date.now(), values: processesOf(apps).map((p) => ({ ...p, ...rss(p.pid) })) });
  const exitsBefore = exits.length;
  const steadyStart = Date.now();
  loop.steadyStart = steadyStart;
  sampleRss();
  const rssTimer = setInterval(sampleRss, 10_000);
  console.log(`steady: ${MINUTES} min from ${new Date(steadyStart).toISOString()}`);
  // CPU per process at each minute's start and end: a per-request cost that grows shows in the CPU per
  // answered request, which sums hundreds of requests a minute, long before it shows in a p95.
  const cpuAt = [processesOf(apps).map((p) => statCpuMs(String(p.pid)))];
  for (let minute = 0; minute < MINUTES; minute++) {
    await loop.runFor(60);
    cpuAt.push(processesOf(apps).map((p) => statCpuMs(String(p.pid))));
    console.log(
      `  minute ${minute + 1}: ${loop.answeredIn(minute)} answered, ${loop.errorCount()} errors so far, ${loop.shed} shed so far, ${loop.inFlight} in flight`,
    );
  }
  sampleRss();
  clearInterval(rssTimer);
  const rssOver = (from, to) => {
    const samples = rssSamples.filter((sample) => sample.at >= from && sample.at <= to);
    return processesOf(apps).map((p) => {
      const of = samples.map((sample) => sample.values.find((v) => v.pid === p.pid)).filter(Boolean);
      return { ...p, own: median(of.map((v) => v.own)), tree: median(of.map((v) => v.tree)), threads: median(of.map((v) => v.threads)) };
    });
  };
  const steadyEnd = steadyStart + MINUTES * 60_000;
  const rssStart = rssOver(steadyStart, steadyStart + 60_000);
  const rssEnd = rssOver(steadyEnd - 60_000, Infinity);
  await Promise.all([...loop.pending]);
  return { rssStart, rssEnd, cpuAt, exitsBefore };
}

/** RSS at the start and the end of the steady part; returns whether a process grew by 10% or more. */
function reportRss(rssStart, rssEnd) {
  const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;
  let memoryOver = false;
  console.log(
    '\nRSS at the start and the end of the steady part (medians of the first and the last minute; own, and with children: compile processes, Chromium), target < 10% growth:',
  );
  for (const start of rssStart) {
    const end = rssEnd.find((p) => p.pid === start.pid) ?? { own: 0, tree: 0, threads: 0 };
    const growth = ((end.own - start.own) / start.own) * 100;
    const treeGrowth = ((end.tree - start.tree) / start.tree) * 100;
    if (growth >= 10) memoryOver = true;
    console.log(
      `  ${start.name.padEnd(22)} ${mb(start.own).padStart(9)} -> ${mb(end.own).padStart(9)} (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%)${growth >= 10 ? ' OVER TARGET' : ''};  with children ${mb(start.tree)} -> ${mb(end.tree)} (${treeGrowth >= 0 ? '+' : ''}${treeGrowth.toFixed(1)}%); threads ${start.threads} -> ${end.threads}`,
    );
  }
  return memoryOver;
}

/** p95 per route and CPU per answered request per process, minute by minute, with their slopes; returns what rises. */
function reportTrends(mix, loop, apps, cpuAt) {
  const header = `  ${'route'.padEnd(32)} ${Array.from({ length: MINUTES }, (_, m) => `m${m + 1}`.padStart(7)).join('')}   least-squares slope`;
  const rising = [];
  console.log('\np95 per route per minute (ms), least-squares slope with its 95% interval, target: no upward trend (RISING: the whole interval above zero):');
  console.log(header);
  for (const [route] of mix) {
    const minutes = loop.perMinute.get(route) ?? [];
    const p95s = minutes.map((latencies) =>
      latencies.length
        ? percentile(
            [...latencies].sort((a, b) => a - b),
            95,
          )
        : NaN,
    );
    const t = describeTrend(p95s, 'ms');
    if (t.rising) rising.push(`p95 of ${route}`);
    const count = minutes.reduce((sum, l) => sum + l.length, 0);
    console.log(
      `  ${`${route} (${count})`.padEnd(32)} ${p95s.map((v) => (Number.isFinite(v) ? v.toFixed(0) : '-').padStart(7)).join('')}   ${t.text}${t.rising ? ' RISING' : ''}`,
    );
  }
  console.log("\nCPU per answered request per minute (ms: each process's CPU in the minute over all requests answered in it), same slope:");
  console.log(header.replace('route', 'process'));
  const answered = Array.from({ length: MINUTES }, (_, m) => loop.answeredIn(m));
  processesOf(apps).forEach((p, i) => {
    const perRequest = answered.map((count, m) => (cpuAt[m + 1][i] - cpuAt[m][i]) / count);
    const t = describeTrend(perRequest, 'ms');
    if (t.rising) rising.push(`CPU of ${p.name}`);
    console.log(
      `  ${p.name.padEnd(32)} ${perRequest.map((v) => (Number.isFinite(v) ? v.toFixed(1) : '-').padStart(7)).join('')}   ${t.text}${t.rising ? ' RISING' : ''}`,
    );
  });
  console.log(`\nrising (95% interval above zero): ${rising.length ? rising.join(', ') : 'none'}`);
}

/** Errors of the steady part (failed answers, shed requests, processes that exited); returns their number. */
function reportErrors(loop, exits, exitsBefore) {
  const errorCount = loop.errorCount() + loop.shed + (exits.length - exitsBefore);
  console.log(`\nerrors in the steady part (target 0): ${errorCount}`);
  for (const [route, entry] of loop.errors) console.log(`  ${route}: ${entry.count} (${[...entry.samples].join('; ')})`);
  if (loop.shed) console.log(`  shed (over ${MAX_IN_FLIGHT} in flight): ${loop.shed}`);
  for (const exit of exits) console.log(`  ${exit}`);
  return errorCount;
}

/** Stops the apps, deletes the soak's account and orphaned screenshots, empties the queues, stops the fixture servers. */
async function tearDown(env, db, deployment, fixtures) {
  await stopApps(deployment.apps);
  if (deployment.accountId) await db.query('DELETE FROM accounts WHERE id = $1', [deployment.accountId]).catch(() => undefined);
  await db.query('DELETE FROM screenshot_images i WHERE NOT EXISTS (SELECT 1 FROM preview_screenshots s WHERE s.hash = i.hash)').catch(() => undefined);
  await db.end();
  await obliterateQueues(env);
  await fixtures.unbound?.stop();
  fixtures.receiver.close();
}

async function main() {
  const fixtures = await startFixtureServers();
  const { unbound, receiver, hooks } = fixtures;
  const env = await soakEnvironment(unbound);
  /** What the end must stop or delete: the processes (and their exits), the account. */
  const deployment = { apps: [], exits: [], accountId: null, logDir: fs.mkdtempSync(path.join(os.tmpdir(), 'mailproof-soak-')) };
  const { Client } = require('pg');
  const db = new Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  try {
    const urls = await startDeployment(env, deployment);
    const api = await createSoakAccount(env, db, urls, deployment);
    const mail = emails();
    await subscribeAndMonitor(api, urls, receiver, unbound);
    const shareIds = await makeShares(api, urls, mail);
    const { mix, total, one } = trafficMix(api, urls, mail, shareIds, unbound);

    const capacity = await measureCapacity(one);
    const rate = capacity * LOAD;
    console.log(
      `load: ${rate.toFixed(2)} requests/s (${LOAD} of capacity), open loop; mix of ${total}: ${mix.map(([route, weight]) => `${route} ${weight}`).join(', ')}; emails: ${mail.source}`,
    );
    const loop = new OpenLoop(one, rate);
    const { rssStart, rssEnd, cpuAt, exitsBefore } = await runWarmUpAndSteady(loop, deployment.apps, deployment.exits);

    // The report.
    const memoryOver = reportRss(rssStart, rssEnd);
    reportTrends(mix, loop, deployment.apps, cpuAt);
    const errorCount = reportErrors(loop, deployment.exits, exitsBefore);
    console.log(`webhook deliveries received: ${hooks.received}; process logs: ${deployment.logDir}`);
    process.exitCode = errorCount > 0 || memoryOver ? 1 : 0;
  } finally {
    await tearDown(env, db, deployment, fixtures);
  }
}

async function waitLive(url) {
  for (const until = Date.now() + 180_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    try {
      if ((await fetch(`${url}/health/live`)).ok) return;
    } catch {
      // not listening yet: try again
    }
  }
  throw new Error(`${url} did not answer within 180 s`);
}

async function obliterateQueues(env) {
  const { Queue } = require('bullmq');
  const { QUEUE_NAMES } = require(path.join(tasks.ROOT, 'dist', 'libs', 'contracts', 'src'));
  const { loadConfig } = require(path.join(tasks.ROOT, 'dist', 'libs', 'config', 'src'));
  const { bullConnection, redisOptionsFromUrl } = require(path.join(tasks.ROOT, 'dist', 'libs', 'queue', 'src'));
  const config = loadConfig(env);
  for (const name of QUEUE_NAMES) {
    const queue = new Queue(name, { connection: bullConnection(config.redis, redisOptionsFromUrl(config.redis.url)), prefix: config.queue.prefix });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
}

main().catch((error) => {
  console.error(`soak: ${error.stack || error.message}`);
  process.exit(1);
});
