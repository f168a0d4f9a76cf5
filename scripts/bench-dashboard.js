#!/usr/bin/env node
// npm run bench:dashboard: server time of each dashboard page over a large account.
// `api` and `worker-preview` run as separate processes (built dist). One real preview is analyzed
// through the API; its stored result is copied into 10,000 saved previews (titles, scores and dates
// vary), and the account gets 50 monitored domains with a year of audits every 6 hours (73,000) and
// drift events, 5,000 gate runs over 20 refs, and 10 webhook endpoints with a delivery of each of
// 5,000 events (50,000). Signed in through the sign-in form, autocannon then requests each page with
// 4 connections for BENCH_SECONDS (5) and reports p50/p95 of the response time (loopback: server
// time plus queueing at 4 connections), and the API process's CPU time per request, which the
// machine's other load hardly changes. Target: p95 <= 50 ms per page.
'use strict';
const { createHash } = require('node:crypto');
const { prepareBenchmark, medianEmail, freePort, percentile, waitReady, startServices, createProKey, signIn } = require('./lib/bench-service');

const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const CONNECTIONS = 4;
const PREVIEWS = 10_000;
const DOMAINS = 50;
const AUDITS_PER_DOMAIN = 365 * 4;
const GATE_RUNS = 5_000;
const REFS = 20;
const WEBHOOK_ENDPOINTS = 10;
const WEBHOOK_EVENTS = 5_000;

/** A deliverability result of realistic size for the domains' last_result and the audits. */
function auditResult(domain, score) {
  const check = (name) => ({
    status: 'pass',
    record: `v=${name}1; p=reject; rua=mailto:dmarc@${domain}`,
    findings: [{ severity: 'info', message: `${name} record found and valid for ${domain}` }],
  });
  return {
    domain,
    score,
    checkedAt: new Date().toISOString(),
    spf: check('spf'),
    dkim: check('dkim'),
    dmarc: check('dmarc'),
    mx: check('mx'),
    bimi: { status: 'missing', findings: [] },
  };
}

/**
 * The copies carry the analyzed preview's ciphertext, which opens only on its own row (encryption at rest binds it
 * to the row id: docs/privacy.md): each copy's source and result are sealed again for its own row, with the built
 * RowCipher over the services' keys (the same environment).
 */
async function sealCopies(db, accountId, previewId) {
  const path = require('node:path');
  const { loadConfig } = require(path.join(__dirname, '..', 'dist', 'libs', 'config', 'src'));
  const { DataKeyRepository, DataKeyring, RowCipher } = require(path.join(__dirname, '..', 'dist', 'libs', 'persistence', 'src'));
  // DataKeyRepository reads and creates keys with dataSource.query (rows back): a pg Client does that with .rows.
  const dataSource = { query: async (sql, values) => (await db.query(sql, values)).rows };
  const cipher = new RowCipher(new DataKeyRepository(dataSource, new DataKeyring(loadConfig(process.env).encryption.keys)));
  const at = (rowId, column) => ({ table: 'previews', column, rowId, accountId });
  const [original] = (await db.query('SELECT source, result FROM previews WHERE id = $1', [previewId])).rows;
  const source = await cipher.openText(at(previewId, 'source'), original.source);
  const result = await cipher.openBytes(at(previewId, 'result'), original.result);
  for (let first = 1; first <= PREVIEWS; first += 500) {
    const ids = Array.from({ length: Math.min(500, PREVIEWS - first + 1) }, (_, i) => `prv_bench${String(first + i).padStart(19, '0')}`);
    const sources = await Promise.all(ids.map((id) => cipher.sealText(at(id, 'source'), source)));
    const results = await Promise.all(ids.map((id) => cipher.sealBytes(at(id, 'result'), result)));
    await db.query(
      'UPDATE previews p SET source = c.source, result = c.result FROM unnest($1::text[], $2::text[], $3::bytea[]) AS c(id, source, result) WHERE p.id = c.id',
      [ids, sources, results],
    );
  }
}

async function seed(db, key, previewId) {
  // A rerun starts from the same size: earlier runs' accounts (and, by cascade, their data) go first.
  await db.query(`DELETE FROM accounts WHERE name LIKE 'bench-dashboard-%' AND id NOT IN (SELECT account_id FROM api_keys WHERE key_hash = $1)`, [
    createHash('sha256').update(key).digest(),
  ]);
  const [{ account_id: accountId }] = (await db.query('SELECT account_id FROM api_keys WHERE key_hash = $1', [createHash('sha256').update(key).digest()])).rows;
  // 10,000 saved previews: the analyzed one's stored result, a year of dates, varied titles and scores.
  await db.query(
    `INSERT INTO previews (id, account_id, title, format, clients, source, status, result, overall_score, created_at, completed_at)
     SELECT 'prv_bench' || lpad(n::text, 19, '0'), $1, initcap((ARRAY['spring','summer','autumn','winter','launch','receipt','digest','welcome'])[1 + n % 8]) || ' campaign ' || n,
            'html', p.clients, p.source, 'completed', p.result, 40 + (n * 37) % 61, now() - make_interval(mins => n * 52), now() - make_interval(mins => n * 52)
     FROM generate_series(1, $2::int) AS n, (SELECT clients, source, result FROM previews WHERE id = $3) AS p`,
    [accountId, PREVIEWS, previewId],
  );
  await sealCopies(db, accountId, previewId);
  // 50 domains, each with a year of audits every 6 hours and a drift event every ~2 weeks.
  for (let d = 0; d < DOMAINS; d++) {
    const domain = `mail${d}.bench-dashboard.example`;
    const score = 60 + ((d * 7) % 40);
    const status = score >= 80 ? 'healthy' : score >= 50 ? 'degraded' : 'failing';
    const [{ id }] = (
      await db.query(
        `INSERT INTO monitored_domains (account_id, domain, status, score, last_checked_at, last_result) VALUES ($1, $2, $3, $4, now(), $5) RETURNING id`,
        [accountId, domain, status, score, JSON.stringify(auditResult(domain, score))],
      )
    ).rows;
    await db.query(
      `INSERT INTO domain_audits (job_id, monitored_domain_id, account_id, domain, trigger, window_key, score, inconclusive, result, checked_at)
       SELECT 'bench-' || $1::text || '-' || n, $1::uuid, $2::uuid, $3, 'schedule', 'w' || n, greatest(0, least(100, $4::int - 10 + (n * 13) % 21)), n % 97 = 0, $5::jsonb, now() - make_interval(hours => n * 6)
       FROM generate_series(0, $6::int - 1) AS n`,
      [id, accountId, domain, score, JSON.stringify(auditResult(domain, score)), AUDITS_PER_DOMAIN],
    );
    await db.query(
      `INSERT INTO drift_events (monitored_domain_id, audit_id, kind, check_name, previous, current, message, detected_at)
       SELECT a.monitored_domain_id, a.id, 'dmarc_policy', 'dmarc', '"reject"', '"quarantine"', 'DMARC policy changed from reject to quarantine', a.checked_at
       FROM domain_audits a WHERE a.monitored_domain_id = $1 AND a.window_key ~ '^w[0-9]+$' AND substr(a.window_key, 2)::int % 56 = 0`,
      [id],
    );
  }
  // 5,000 gate runs over 20 refs, a quarter failing with two failures each.
  await db.query(
    `INSERT INTO gate_runs (id, account_id, ref, request, preview_id, status, passed, overall_score, verdict, created_at, completed_at)
     SELECT 'gtr_bench' || lpad(n::text, 19, '0'), $1, 'templates/campaign-' || (n % $3::int), '{"threshold":70}'::jsonb, NULL, 'completed', n % 4 <> 0, 60 + n % 40,
            jsonb_build_object('passed', n % 4 <> 0, 'overallScore', 60 + n % 40, 'threshold', 70, 'failures',
              CASE WHEN n % 4 = 0 THEN '[{"family":"compatibility","check":"threshold","clientId":"outlook-windows-legacy","score":55,"threshold":70},{"family":"compatibility","check":"client-errors","clientId":"gmail-web","errors":2}]'::jsonb ELSE '[]'::jsonb END),
            now() - make_interval(mins => n * 97), now() - make_interval(mins => n * 97)
     FROM generate_series(1, $2::int) AS n`,
    [accountId, GATE_RUNS, REFS],
  );
  // 10 webhook endpoints (the default limit; two disabled), each with a delivery of every one of 5,000 events.
  await db.query(
    `INSERT INTO webhook_endpoints (account_id, url, events, secret, status, disabled_reason, disabled_at, consecutive_failures, created_at)
     SELECT $1, 'https://hooks.bench-dashboard.example/endpoint-' || n, ARRAY['domain.drift','domain.status_changed','gate.failed'], 'whsec_' || md5(n::text),
            CASE WHEN n <= 2 THEN 'disabled' ELSE 'enabled' END, CASE WHEN n <= 2 THEN 'HTTP 503 on 20 deliveries in a row' END, CASE WHEN n <= 2 THEN now() END,
            CASE WHEN n <= 2 THEN 20 ELSE 0 END, now() - make_interval(days => n)
     FROM generate_series(1, $2::int) AS n`,
    [accountId, WEBHOOK_ENDPOINTS],
  );
  await db.query(
    `INSERT INTO webhook_events (id, account_id, type, source_key, payload, created_at)
     SELECT 'msg_bench' || $1::text || lpad(n::text, 6, '0'), $1::uuid, 'domain.drift', 'bench/' || $1::text || '/' || n, '{"type":"domain.drift","data":{}}'::jsonb, now() - make_interval(mins => n * 100)
     FROM generate_series(1, $2::int) AS n`,
    [accountId, WEBHOOK_EVENTS],
  );
  await db.query(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, status, attempts, last_status, last_error, last_attempt_at, delivered_at, created_at)
     SELECT w.id, e.id, CASE WHEN w.status = 'disabled' THEN 'failed' ELSE 'delivered' END, CASE WHEN w.status = 'disabled' THEN 12 ELSE 1 END,
            CASE WHEN w.status = 'disabled' THEN 503 ELSE 200 END, CASE WHEN w.status = 'disabled' THEN 'answered 503' END, e.created_at, CASE WHEN w.status = 'enabled' THEN e.created_at END, e.created_at
     FROM webhook_endpoints w JOIN webhook_events e ON e.account_id = w.account_id WHERE w.account_id = $1`,
    [accountId],
  );
  // What autovacuum does to tables in steady use: statistics, and visibility maps for index-only scans.
  await db.query('VACUUM ANALYZE previews, domain_audits, drift_events, gate_runs, monitored_domains, webhook_endpoints, webhook_events, webhook_deliveries');
  const [domain] = (await db.query('SELECT id FROM monitored_domains WHERE account_id = $1 ORDER BY domain LIMIT 1', [accountId])).rows;
  const [endpoint] = (await db.query(`SELECT id FROM webhook_endpoints WHERE account_id = $1 AND status = 'enabled' ORDER BY created_at LIMIT 1`, [accountId]))
    .rows;
  return { accountId, domainId: domain.id, webhookId: endpoint.id };
}

/** One preview analyzed by the worker (its first analyses may outlast the budget: then poll for it). */
async function analyzedPreview(url, key, html) {
  const send = () =>
    fetch(`${url}/api/preview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ html, title: 'bench seed' }),
    });
  // The readiness poll's keep-alive connection may have been closed by the server meanwhile (idle
  // timeout): fetch reuses it and fails once; the retry opens a new one.
  const created = await send().catch((error) => {
    if (error?.cause?.code === 'UND_ERR_SOCKET') return send();
    throw error;
  });
  const body = await created.json();
  if (created.status === 200) return body.id;
  if (created.status !== 503 || !body.id) throw new Error(`seed preview answered ${created.status}: ${JSON.stringify(body)}`);
  for (let attempt = 0; attempt < 60; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const read = await fetch(`${url}/api/preview/${body.id}`, { headers: { 'x-api-key': key } });
    if (read.status === 200) return body.id;
  }
  throw new Error('the seed preview was not analyzed within a minute');
}

/** CPU time (user + system, ms) of one process so far, from /proc (Linux): what a page costs the API whatever the machine's load. */
function processCpuMs(pid) {
  try {
    const stat = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** `paths`: one path, or a function giving the next one (a page over many records, so no cache helps). */
function measure(url, cookie, seconds, nextPath) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => {
    const latencies = [];
    const requests = nextPath ? [{ method: 'GET', setupRequest: (request) => ({ ...request, path: nextPath() }) }] : undefined;
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { cookie }, requests }, (error, result) =>
      error ? reject(error) : resolve({ result, latencies }),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

async function main() {
  const env = await prepareBenchmark('bench-dashboard', { RATE_LIMIT_PRO: '1000000', DASHBOARD_SIGN_IN_LIMIT: '1000' });
  const { Client } = require('pg');
  const db = new Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { stop, pids } = startServices(env, port);
  let accountId = null;
  try {
    await waitReady(url, ['preview']);
    const key = createProKey(env, 'bench-dashboard');
    const email = medianEmail();
    const previewId = await analyzedPreview(url, key, email.html);
    const seeding = Date.now();
    const seeded = await seed(db, key, previewId);
    accountId = seeded.accountId;
    const { domainId, webhookId } = seeded;
    console.log(
      `seeded ${PREVIEWS} previews (result of ${email.name}), ${DOMAINS} domains x ${AUDITS_PER_DOMAIN} audits, ${GATE_RUNS} gate runs over ${REFS} refs, ${WEBHOOK_ENDPOINTS} webhook endpoints x ${WEBHOOK_EVENTS} deliveries in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const cookie = await signIn(url, key);
    const pages = [
      ['overview', '/app'],
      ['previews', '/app/previews'],
      ['previews, search "summer"', '/app/previews?q=summer'],
      ['previews, by score, page 200', '/app/previews?sort=score-desc&page=200'],
      // A different saved preview each request: its stored result is read, decompressed and parsed every time.
      ['preview (random of 10,000)', '/app/previews/', () => `/app/previews/prv_bench${String(1 + Math.floor(Math.random() * PREVIEWS)).padStart(19, '0')}`],
      ['new preview', '/app/previews/new'],
      ['gate runs', '/app/gate'],
      ['gate ref', '/app/gate/ref?ref=templates%2Fcampaign-7'],
      ['gate run', `/app/gate/runs/gtr_bench${'4000'.padStart(19, '0')}`],
      ['domains', '/app/domains'],
      ['domain', `/app/domains/${domainId}`],
      ['keys', '/app/keys'],
      ['webhooks', '/app/webhooks'],
      ['webhook', `/app/webhooks/${webhookId}`],
    ];
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per page, target p95 <= 50 ms`);
    for (const [name, pagePath, nextPath] of pages) {
      await measure(`${url}${pagePath}`, cookie, 1, nextPath); // warm-up: JIT and the page's query plans
      const cpuBefore = processCpuMs(pids()[1]);
      const { result, latencies } = await measure(`${url}${pagePath}`, cookie, SECONDS, nextPath);
      const cpuPerRequest = (processCpuMs(pids()[1]) - cpuBefore) / Math.max(1, result.requests.total);
      latencies.sort((a, b) => a - b);
      const p95 = percentile(latencies, 95);
      console.log(
        `  ${name.padEnd(30)} ${String(result.requests.total).padStart(6)} req, non-2xx ${result.non2xx}, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms${p95 > 50 ? ' (over target)' : ''}; API CPU ${cpuPerRequest.toFixed(1)} ms/request`,
      );
    }
  } finally {
    await stop();
    // The seeded account goes with its 100,000 rows, so the database is as it was.
    if (accountId) await db.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    await db.end();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
