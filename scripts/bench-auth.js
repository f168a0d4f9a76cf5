#!/usr/bin/env node
// npm run bench:auth — what the authentication + rate-limit layer costs per request.
// One process, one run: autocannon against GET /api/clients (a) with an API key through the
// whole access layer (key check, Redis rate limit, usage counting) and (b) on an identical app
// without the layer. Prints p50/p99 of both, the added cost, and the database queries per request
// for a cached key. Needs PostgreSQL and Redis (as npm start does); builds first.
'use strict';
const path = require('node:path');
const tasks = require('./lib/tasks');

const DURATION_S = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 16;

async function main() {
  tasks.ensureDependencies();
  if (!process.env.BENCH_NO_BUILD) tasks.build({ quiet: true });
  process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/mailproof_bench';
  process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
  process.env.LOG_LEVEL = 'silent';
  process.env.QUEUE_PREFIX = `bench-auth-${process.pid}`;
  process.env.RATE_LIMIT_FREE = '1000000';
  await tasks.ensureServices(process.env.DATABASE_URL, process.env.REDIS_URL);
  await tasks.ensureDatabase(process.env.DATABASE_URL);

  const dist = path.join(tasks.ROOT, 'dist');
  require('reflect-metadata');
  const { loadConfig } = require(path.join(dist, 'libs/config/src'));
  const { migrateDatabase, AccountsRepository } = require(path.join(dist, 'libs/persistence/src'));
  const { createApiApp } = require(path.join(dist, 'apps/api/src/start-api'));
  const autocannon = require('autocannon');
  const { Client } = require('pg');

  const config = loadConfig();
  await migrateDatabase(config.database.url);
  const withLayer = await createApiApp(config);
  const withoutLayer = await createApiApp(config, undefined, { accessLayer: false });
  await withLayer.listen(0, '127.0.0.1');
  await withoutLayer.listen(0, '127.0.0.1');
  const { DataSource } = require('typeorm');
  const accounts = new AccountsRepository(withLayer.get(DataSource));
  const { key } = (await accounts.createAccount(`bench-${Date.now()}`, 'free')).key;

  // Count every query the pg driver sends while the authenticated run is going.
  let queries = 0;
  const originalQuery = Client.prototype.query;
  Client.prototype.query = function countedQuery(...args) {
    queries += 1;
    return originalQuery.apply(this, args);
  };

  const url = (app) => `http://127.0.0.1:${app.getHttpServer().address().port}/api/clients`;
  const run = (target, headers, connections) =>
    new Promise((resolve, reject) =>
      autocannon({ url: target, connections, duration: DURATION_S, headers }, (error, result) => (error ? reject(error) : resolve(result))),
    );
  const auth = { authorization: `Bearer ${key}` };

  // Warm both (JIT, key cache, connection pools) before measuring.
  await run(url(withoutLayer), {}, CONNECTIONS);
  await run(url(withLayer), auth, CONNECTIONS);

  const row = (name, r) =>
    `${name.padEnd(36)} ${String(r.latency.p50).padStart(6)} ${r.latency.mean.toFixed(2).padStart(7)} ${String(r.latency.p99).padStart(6)} ${String(Math.round(r.requests.average)).padStart(8)} ${String(r.non2xx).padStart(6)}`;
  console.log(`GET /api/clients, ${DURATION_S} s per run (autocannon latency is whole ms; the mean has more resolution)`);
  console.log(`${'run'.padEnd(36)} ${'p50 ms'.padStart(6)} ${'mean ms'.padStart(7)} ${'p99 ms'.padStart(6)} ${'req/s'.padStart(8)} ${'non2xx'.padStart(6)}`);
  for (const connections of [1, CONNECTIONS]) {
    const bare = await run(url(withoutLayer), {}, connections);
    queries = 0;
    const authed = await run(url(withLayer), auth, connections);
    const authedQueries = queries;
    console.log(row(`${connections} conn, without auth + rate limit`, bare));
    console.log(row(`${connections} conn, with key (auth + limit)`, authed));
    console.log(
      `  added: p50 ${(authed.latency.p50 - bare.latency.p50).toFixed(2)} ms, mean ${(authed.latency.mean - bare.latency.mean).toFixed(2)} ms (target <= 1 ms at p50);` +
        ` db queries/request ${(authedQueries / authed.requests.total).toFixed(4)} (${authedQueries} for ${authed.requests.total}; target <= 1)`,
    );
  }
  Client.prototype.query = originalQuery;
  await withLayer.close();
  await withoutLayer.close();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
