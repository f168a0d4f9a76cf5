#!/usr/bin/env node
/**
 * npm run bench:privacy — what the retention sweep, the export and the erasure of an account cost
 * (docs/privacy.md, "Measured"), on real PostgreSQL through the built repositories (`dist/`, built first unless
 * BENCH_NO_BUILD is set), with encryption at rest on. Its own database: DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/mailproof_bench_privacy (created and migrated here; every account it makes
 * is erased at the end).
 *
 * For each size in BENCH_PRIVACY_PREVIEWS (default "2000,10000"): one pro account with that many previews of
 * BENCH_PRIVACY_PREVIEW_KB (10) KB of HTML each (status completed, no stored result, created 40 days ago with a
 * retention of 30 days, so all are due), inserted through PreviewRepository.create (the source sealed as the API
 * seals it). Then, timed in this order:
 *   1. the export (AccountDataRepository.exportChunks, streamed and counted, never held: bytes, chunks, RSS before
 *      and its peak while streaming);
 *   2. one retention sweep (RetentionRepository.sweep) removing the content of every preview;
 *   3. the next sweep, with nothing due;
 *   4. the erasure (AccountDataRepository.erase: every row, one transaction).
 * Prints one line per step and size, and the load average at the start and the end (the figures depend on it).
 */
'use strict';
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { prepareBenchmark } = require('./lib/bench-service');
const tasks = require('./lib/tasks');

const sizes = (process.env.BENCH_PRIVACY_PREVIEWS || '2000,10000')
  .split(',')
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isInteger(value) && value > 0);
const previewBytes = Number(process.env.BENCH_PRIVACY_PREVIEW_KB || 10) * 1024;
/** Previews inserted at once (each create is its own INSERT, as the API makes them). */
const INSERT_CONCURRENCY = 8;

const loadAverage = () =>
  require('node:os')
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** An HTML email of about `bytes` bytes, different per preview (the sealed source is not all the same block). */
function emailOf(bytes, index) {
  const paragraph = (n) => `<p style="margin:0 0 12px">Paragraph ${n} of preview ${index}: ${randomBytes(24).toString('hex')}</p>\n`;
  let html = `<!doctype html><html lang="en"><head><title>Bench ${index}</title></head><body>\n`;
  for (let n = 0; html.length < bytes - 20; n++) html += paragraph(n);
  return `${html}</body></html>`;
}

async function main() {
  const env = await prepareBenchmark('bench-privacy', {
    DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/mailproof_bench_privacy',
    MAILPROOF_DATA_KEYS: process.env.MAILPROOF_DATA_KEYS || `bench:${randomBytes(32).toString('base64')}`,
  });
  Object.assign(process.env, { DATABASE_URL: env.DATABASE_URL, MAILPROOF_DATA_KEYS: env.MAILPROOF_DATA_KEYS, LOG_LEVEL: 'silent' });
  require('reflect-metadata');
  const dist = (relative) => require(path.join(tasks.ROOT, 'dist', relative));
  const { loadConfig } = dist('libs/config/src/index.js');
  const persistence = dist('libs/persistence/src/index.js');
  const { DataSource } = require('typeorm');
  const config = loadConfig();
  const dataSource = new DataSource(persistence.buildDataSourceOptions({ url: config.database.url, poolSize: INSERT_CONCURRENCY + 2 }));
  await dataSource.initialize();
  await persistence.runMigrationsLocked(dataSource);
  const dataKeys = new persistence.DataKeyRepository(dataSource, new persistence.DataKeyring(config.encryption.keys));
  const cipher = new persistence.RowCipher(dataKeys);
  // Wired as `mailproof account export/delete` wires them (apps/cli/src/commands/account-data.command.ts).
  const screenshots = new persistence.ScreenshotRepository(dataSource, cipher);
  const previews = new persistence.PreviewRepository(dataSource, screenshots, cipher);
  const webhooks = new persistence.WebhookRepository(dataSource, cipher);
  const accounts = new persistence.AccountsRepository(dataSource);
  const accountData = new persistence.AccountDataRepository(
    dataSource,
    previews,
    new persistence.FixRunRepository(dataSource, cipher),
    new persistence.GateRunRepository(dataSource, webhooks, cipher),
    dataKeys,
    webhooks,
    screenshots,
  );
  const retention = new persistence.RetentionRepository(dataSource, screenshots, cipher, webhooks);
  console.log(`bench:privacy: ${sizes.join(' and ')} previews of ${previewBytes / 1024} KB, database ${new URL(config.database.url).pathname.slice(1)}`);
  console.log(`load average at the start: ${loadAverage()}`);
  const made = [];
  try {
    for (const size of sizes) {
      const { account } = await accounts.createAccount(`bench-privacy-${size}-${process.pid}`, 'pro');
      made.push(account.id);
      await dataSource.query('UPDATE accounts SET retention_days = 30 WHERE id = $1', [account.id]);
      let inserted = 0;
      const insertStart = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: INSERT_CONCURRENCY }, async () => {
          while (inserted < size) {
            const index = inserted++;
            await previews.create({
              accountId: account.id,
              title: `Bench ${index}`,
              format: 'html',
              clients: ['gmail-web'],
              source: emailOf(previewBytes, index),
              expiresAt: null,
            });
          }
        }),
      );
      await dataSource.query(`UPDATE previews SET status = 'completed', overall_score = 90, created_at = now() - interval '40 days' WHERE account_id = $1`, [
        account.id,
      ]);
      console.log(`\n${size} previews: inserted in ${(ms(insertStart) / 1000).toFixed(1)} s`);

      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      let bytes = 0;
      let chunks = 0;
      const exportStart = process.hrtime.bigint();
      for await (const chunk of accountData.exportChunks(account.id)) {
        bytes += Buffer.byteLength(chunk);
        chunks++;
        if (chunks % 100 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }
      const exportMs = ms(exportStart);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      console.log(
        `  export: ${(exportMs / 1000).toFixed(2)} s, ${mb(bytes)} of JSON in ${chunks} chunks; RSS ${mb(rssBefore)} before, at most ${mb(peakRss)} while streaming`,
      );

      const sweepStart = process.hrtime.bigint();
      const swept = await retention.sweep(new Date());
      console.log(`  retention sweep: ${ms(sweepStart).toFixed(0)} ms, content of ${swept.previewsPurged} previews removed`);
      const nextStart = process.hrtime.bigint();
      const next = await retention.sweep(new Date());
      console.log(`  the next sweep, nothing due: ${ms(nextStart).toFixed(1)} ms (${next.previewsPurged} removed)`);

      const eraseStart = process.hrtime.bigint();
      const erased = await accountData.erase(account.id, 'cli');
      made.pop();
      const rows = erased ? Object.values(erased.rowCounts).reduce((sum, count) => sum + count, 0) : 0;
      console.log(`  erasure (every row, one transaction): ${ms(eraseStart).toFixed(0)} ms${rows ? `, ${rows} rows` : ''}`);
    }
  } finally {
    for (const id of made) await accountData.erase(id, 'cli').catch(() => undefined);
    await dataSource.destroy();
  }
  console.log(`\nload average at the end: ${loadAverage()}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
