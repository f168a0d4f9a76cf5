#!/usr/bin/env node
// npm run bench:dns — DNS audit latency (uncached and cached, p50/p95) and a drift sweep of 1,000
// monitored domains, against unbound on loopback (DoH over h2c), PostgreSQL and Redis.
// Targets (issue 7): cached audit p50 <= 5 ms; the 1,000-domain sweep done in <= 30 s.
// Runs the built apps (npm run build first is done here); the unbound helper is bundled with esbuild (scripts/lib/test-helpers.js).
'use strict';
require('reflect-metadata');
const path = require('node:path');
const tasks = require('./lib/tasks');
const { loadDnsFixtures } = require('./lib/test-helpers');

const root = path.resolve(__dirname, '..');
const DOMAINS = Number(process.env.BENCH_DNS_DOMAINS || 1000);
const SAMPLES = Number(process.env.BENCH_DNS_SAMPLES || 100);

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const ms = (value) => `${value.toFixed(1)} ms`;

async function main() {
  tasks.loadDotEnv();
  process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/mailproof_test';
  process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
  process.env.LOG_LEVEL = 'silent';
  const { UnboundServer, unboundAvailable, healthyDomain, rsaDkimKey } = loadDnsFixtures();
  if (!unboundAvailable()) {
    console.log('bench:dns: unbound is not installed (apt-get install -y unbound); nothing to measure.');
    return;
  }
  tasks.build({ quiet: true });
  await tasks.ensureDatabase(process.env.DATABASE_URL);
  const dist = (p) => require(path.join(root, 'dist', p));
  const { loadConfig } = dist('libs/config/src');
  const { auditDomain } = dist('libs/engine/src/dns');
  const { migrateDatabase, AccountsRepository, buildDataSourceOptions } = dist('libs/persistence/src');
  const { TangerineResolver } = dist('apps/worker-dns/src/adapters/tangerine.resolver');
  const { startWorkerDns } = dist('apps/worker-dns/src/start-worker-dns');
  const { startScheduler } = dist('apps/scheduler/src/start-scheduler');
  const { DriftSweepService } = dist('apps/scheduler/src/drift-sweep.service');
  const { DataSource } = require('typeorm');
  const { Queue } = require('bullmq');

  const key = rsaDkimKey(2048);
  const names = Array.from({ length: DOMAINS }, (_, i) => `d${String(i).padStart(4, '0')}.bench.test`);
  const records = { '_spf.provider.test': { TXT: ['v=spf1 ip4:198.51.100.0/24 ~all'] } };
  for (const name of names) Object.assign(records, healthyDomain(name, key));
  const unbound = await UnboundServer.start({ records });
  const prefix = `bench-${process.pid}`;
  const config = loadConfig({
    ...process.env,
    QUEUE_PREFIX: prefix,
    DNS_SERVERS: unbound.dohServer,
    DNS_PROTOCOL: 'http',
    DNS_TIMEOUT_MS: '2000',
    DOMAIN_AUDIT_INTERVAL: '6h',
  });
  const cleanups = [() => unbound.stop()];
  try {
    // 1. One audit at a time, first with an empty cache, then the same domains again.
    const resolver = new TangerineResolver(config);
    cleanups.unshift(() => resolver.onApplicationShutdown());
    const sample = names.slice(0, SAMPLES);
    const timeAudits = async () => {
      const times = [];
      for (const name of sample) {
        const start = process.hrtime.bigint();
        const result = await auditDomain(name, resolver, {});
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (result.score !== 100) throw new Error(`${name} scored ${result.score}`);
      }
      return times;
    };
    const uncached = await timeAudits();
    const cached = await timeAudits();
    console.log(`audit, uncached (${SAMPLES} domains, ~31 DoH queries each): p50 ${ms(percentile(uncached, 50))}, p95 ${ms(percentile(uncached, 95))}`);
    console.log(`audit, cached in Redis:                          p50 ${ms(percentile(cached, 50))}, p95 ${ms(percentile(cached, 95))}  (target p50 <= 5 ms)`);

    // 2. A drift sweep: 1,000 monitored domains fanned out by the scheduler, audited by worker-dns.
    await migrateDatabase(config.database.url);
    const db = await new DataSource(buildDataSourceOptions({ url: config.database.url, poolSize: 2 })).initialize();
    cleanups.unshift(() => db.destroy());
    const { account } = await new AccountsRepository(db).createAccount(`bench-dns-${process.pid}`, 'pro');
    cleanups.unshift(() => db.query('DELETE FROM accounts WHERE id = $1', [account.id]));
    await db.query(`INSERT INTO monitored_domains (account_id, domain) SELECT $1, unnest($2::text[])`, [account.id, names]);
    // Cold cache for the sweep: it measures DNS too.
    const redis = new (require('ioredis'))(config.redis.url);
    const stale = await redis.keys(`${prefix}:dns-cache:*`);
    if (stale.length) await redis.del(...stale);
    await redis.quit();
    const worker = await startWorkerDns(config);
    const scheduler = await startScheduler(config);
    cleanups.unshift(async () => {
      await scheduler.close();
      await worker.close();
      for (const name of ['dns-audit', 'scheduler']) {
        const queue = new Queue(name, {
          connection: { host: new URL(config.redis.url).hostname, port: Number(new URL(config.redis.url).port || 6379) },
          prefix,
        });
        await queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
      }
    });
    const started = Date.now();
    const window = (await scheduler.get(DriftSweepService).sweep(started)).window;
    const deadline = started + 120_000;
    let done = 0;
    while (Date.now() < deadline) {
      done = (
        await db.query(
          'SELECT count(*)::int AS n FROM domain_audits a JOIN monitored_domains d ON d.id = a.monitored_domain_id WHERE d.account_id = $1 AND a.window_key = $2',
          [account.id, window],
        )
      )[0].n;
      if (done >= DOMAINS) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `drift sweep of ${DOMAINS} monitored domains (WORKER_DNS_CONCURRENCY ${config.workers.dnsConcurrency}): ${done} audited in ${seconds.toFixed(1)} s  (target <= 30 s)`,
    );
  } finally {
    for (const cleanup of cleanups)
      await Promise.resolve()
        .then(cleanup)
        .catch((error) => console.error(`cleanup: ${error.message}`));
  }
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(`bench:dns: ${error.stack || error.message}`);
    process.exit(1);
  });
