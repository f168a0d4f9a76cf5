import type { INestApplicationContext } from '@nestjs/common';
import Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { auditWindow, type DnsAuditJobPayload } from '@mailproof/contracts';
import type { DeliverabilityResult } from '@mailproof/engine/dns';
import { MonitoredDomainRepository, migrateDatabase } from '@mailproof/persistence';
import { redisOptionsFromUrl } from '@mailproof/queue';
import { DRIFT_SWEEP_SCHEDULER_ID } from '../../apps/scheduler/src/drift-schedule.service';
import { startScheduler } from '../../apps/scheduler/src/start-scheduler';
import { startWorkerDns } from '../../apps/worker-dns/src/start-worker-dns';
import { createTestAccount, openDatabase } from '../utils/database';
import { deliverabilityFixtures, healthyDomain, rsaDkimKey } from '../utils/dns-fixture-zones';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { UnboundServer } from '../utils/unbound-server';
import { sleep, waitFor } from '../utils/wait';

// worker-dns and the scheduler booted in-process against real PostgreSQL, Redis, BullMQ and a
// real DNS server (unbound on loopback, reached over DNS over HTTPS).
// Never skipped: without unbound the stack fails to start with a message naming the package.
const describeWithUnbound = describe;

describeWithUnbound('DNS audits against a real DNS server', () => {
  let unbound: UnboundServer;
  let config: ReturnType<typeof testConfig>;
  let queues: ReturnType<typeof openQueues>;
  let db: DataSource;
  let worker: INestApplicationContext;
  let accountId: string;
  const jobIds: string[] = [];

  beforeAll(async () => {
    const fixtures = deliverabilityFixtures();
    unbound = await UnboundServer.start({
      records: {
        ...fixtures.records,
        ...healthyDomain('drift.test', rsaDkimKey(2048), {
          'drift.test': { MX: [{ exchange: 'mx1.drift.test', priority: 10 }], TXT: ['v=spf1 mx -all'], ttl: 1 },
          '_dmarc.drift.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:r@drift.test'], ttl: 1 },
        }),
      },
      silentZones: fixtures.silentZones,
    });
    config = testConfig({ DNS_SERVERS: unbound.dohServer, DNS_PROTOCOL: 'http', DNS_TIMEOUT_MS: 1_500, DNS_TRIES: 2 });
    queues = openQueues(config);
    await migrateDatabase(config.database.url);
    db = await openDatabase(config);
    accountId = (await createTestAccount(db, 'pro')).accountId;
    worker = await startWorkerDns(config);
  });

  afterAll(async () => {
    await worker?.close();
    await queues?.closeAll();
    if (db) {
      await db.query('DELETE FROM domain_audits WHERE job_id = ANY($1)', [jobIds]);
      await db.query('DELETE FROM accounts WHERE id = $1', [accountId]);
      await db.destroy();
    }
    await unbound?.stop();
  });

  async function audit(domain: string, extra: Partial<DnsAuditJobPayload> = {}, id = `it-${domain}-${Math.random().toString(36).slice(2)}`) {
    jobIds.push(id);
    const payload: DnsAuditJobPayload = { schemaVersion: 1, domain, dkimSelectors: [], trigger: 'on-demand', ...extra };
    await queues['dns-audit'].add('dns-audit.run', payload, { jobId: id });
    const [row] = await waitFor(
      async () => {
        const rows = await db.query('SELECT id, score, inconclusive, result FROM domain_audits WHERE job_id = $1', [id]);
        return rows.length > 0 ? rows : null;
      },
      `the audit of ${domain}`,
      20_000,
    );
    return row as { id: string; score: number | null; inconclusive: boolean; result: DeliverabilityResult };
  }
  const rules = (result: DeliverabilityResult) => result.issues.map((issue) => issue.rule);

  it('audits every fixture over DoH and stores the result', async () => {
    const domains = [
      'healthy.test',
      'spf-eleven.test',
      'two-spf.test',
      'plus-all.test',
      'no-dmarc.test',
      'dmarc-none.test',
      'weak-dkim.test',
      'null-mx.test',
      'no-bimi.test',
      'spf-macro.test',
      'implicit-mx.test',
      'dmarc-rua-only.test',
    ];
    const results = Object.fromEntries(await Promise.all(domains.map(async (domain) => [domain, (await audit(domain)).result] as const)));

    expect(results['healthy.test']).toMatchObject({
      domain: 'healthy.test',
      score: 100,
      spf: { valid: true, record: 'v=spf1 include:_spf.provider.test mx -all', lookups: 2 },
      dkim: { valid: true, selector: 'selector1', keys: [{ selector: 'selector1', bits: 2048 }] },
      dmarc: { valid: true, policy: 'reject' },
      mx: { valid: true, hosts: ['mx1.healthy.test', 'mx2.healthy.test'] },
      bimi: { valid: true, indicatorUrl: 'https://healthy.test/logo.svg' },
    });
    expect(Object.values(results['healthy.test'].checks).map((c) => c.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);

    expect(results['spf-eleven.test'].spf).toMatchObject({ valid: false, lookups: 11, lookupsComplete: true });
    expect(rules(results['spf-eleven.test'])).toContain('spf_too_many_lookups');
    expect(results['two-spf.test'].checks.spf.status).toBe('fail');
    expect(rules(results['two-spf.test'])).toContain('spf_multiple_records');
    expect(rules(results['plus-all.test'])).toContain('spf_pass_all');
    // Issue 19: +all is valid SPF with a failing check; a macro's include is followed; implicit MX and rua-only DMARC.
    expect(results['plus-all.test'].spf.valid).toBe(true);
    expect(results['plus-all.test'].checks.spf.status).toBe('fail');
    expect(results['spf-macro.test'].spf).toMatchObject({ valid: false, lookups: 11 });
    expect(rules(results['spf-macro.test'])).toContain('spf_too_many_lookups');
    expect(results['implicit-mx.test'].checks.mx.status).toBe('warn');
    expect(rules(results['implicit-mx.test'])).toContain('mx_implicit');
    // No p= tag: not a valid record (RFC 7489 6.6.3); with a valid rua the effective policy is none.
    expect(results['dmarc-rua-only.test'].dmarc).toMatchObject({ valid: false, policy: 'none' });
    expect(results['dmarc-rua-only.test'].checks.dmarc.status).toBe('fail');
    expect(results['no-dmarc.test'].checks.dmarc.status).toBe('fail');
    expect(results['no-dmarc.test'].dmarc.valid).toBe(false);
    expect(results['dmarc-none.test'].checks.dmarc.status).toBe('warn');
    expect(results['dmarc-none.test'].dmarc.policy).toBe('none');
    expect(results['weak-dkim.test'].dkim).toMatchObject({ valid: true, selector: 'google', keys: [{ bits: 1024 }] });
    expect(results['weak-dkim.test'].checks.dkim.status).toBe('warn');
    expect(rules(results['null-mx.test'])).toContain('mx_null');
    expect(results['null-mx.test'].checks.mx.status).toBe('fail');
    expect(results['no-bimi.test'].checks.bimi.status).toBe('warn');
    expect(results['no-bimi.test'].score).toBe(95);
  });

  it('turns a name that times out into skipped checks, not a failed job', async () => {
    const row = await audit('slow.test');
    expect(Object.values(row.result.checks).map((c) => c.status)).toEqual(['skip', 'skip', 'skip', 'skip', 'skip']);
    expect(row.result.checks.mx.message).toMatch(/timed out/);
    expect(row.inconclusive).toBe(true);
    expect(row.score).toBeNull();
    expect(row.result.score).toBeNull();
  });

  it('caches answers in Redis for as long as their TTL says', async () => {
    await audit('healthy.test');
    const redis = new Redis(redisOptionsFromUrl(config.redis.url));
    try {
      const prefix = `${config.queue.prefix}:dns-cache:`;
      const pttl = await redis.pttl(`${prefix}txt:healthy.test`);
      expect(pttl).toBeGreaterThan(200_000);
      expect(pttl).toBeLessThanOrEqual(300_000);
      // A name missing from the zone is remembered as missing for the negative TTL (60 s by default).
      const missing = await redis.pttl(`${prefix}nx:txt:default._domainkey.healthy.test`);
      expect(missing).toBeGreaterThan(0);
      expect(missing).toBeLessThanOrEqual(60_000);
    } finally {
      await redis.quit();
    }
  });

  it('records drift when a monitored domain changes between two audits', async () => {
    const added = await new MonitoredDomainRepository(db).add(accountId, 'drift.test', [], 10);
    expect(added.status).toBe('created');
    const domainId = added.status === 'created' ? added.domain.id : '';
    const interval = config.deliverability.auditIntervalMs;
    const first = await audit('drift.test', { trigger: 'domain-added', accountId, monitoredDomainId: domainId, window: auditWindow(0, interval) });
    expect(first.score).toBe(100);
    let domain = await db.query('SELECT status, score, last_drift FROM monitored_domains WHERE id = $1', [domainId]);
    expect(domain[0]).toEqual({ status: 'healthy', score: 100, last_drift: null });

    unbound.setRecords('_dmarc.drift.test', { TXT: ['v=DMARC1; p=none; rua=mailto:r@drift.test'], ttl: 1 });
    unbound.setRecords('drift.test', { MX: [{ exchange: 'mx2.drift.test', priority: 10 }], TXT: ['v=spf1 mx a -all'], ttl: 1 });
    await sleep(1_100); // the records' TTL: the cache must let the change through
    const second = await audit('drift.test', { trigger: 'schedule', accountId, monitoredDomainId: domainId, window: auditWindow(interval, interval) });

    const events = await db.query(
      'SELECT kind, check_name, previous, current, previous_audit_id FROM drift_events WHERE audit_id = $1 ORDER BY kind, check_name',
      [second.id],
    );
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining(['dmarc_policy', 'dmarc_record', 'mx_hosts', 'spf_record', 'spf_lookups', 'score']),
    );
    expect(events.find((e: { kind: string }) => e.kind === 'dmarc_policy')).toMatchObject({ previous: 'reject', current: 'none', previous_audit_id: first.id });
    expect(events.find((e: { kind: string }) => e.kind === 'mx_hosts')).toMatchObject({ previous: ['mx1.drift.test'], current: ['mx2.drift.test'] });
    domain = await db.query('SELECT status, score, last_drift FROM monitored_domains WHERE id = $1', [domainId]);
    expect(domain[0].score).toBe(second.score);
    expect(domain[0].score).toBeLessThan(100);
    expect(domain[0].last_drift.auditId).toBe(second.id);

    // A second job for a window that already has an audit does nothing.
    const repeatId = `it-repeat-${Date.now()}`;
    jobIds.push(repeatId);
    await queues['dns-audit'].add(
      'dns-audit.run',
      { schemaVersion: 1, domain: 'drift.test', dkimSelectors: [], trigger: 'schedule', monitoredDomainId: domainId, window: auditWindow(interval, interval) },
      { jobId: repeatId },
    );
    const job = await waitFor(
      async () => {
        const found = await queues['dns-audit'].getJob(repeatId);
        // Read the job again once completed: the copy fetched while it was active has no return value yet.
        return (await found?.getState()) === 'completed' ? ((await queues['dns-audit'].getJob(repeatId)) ?? null) : null;
      },
      'the repeated window job',
      10_000,
    );
    expect(job?.returnvalue).toMatchObject({ auditId: null });
    const count = await db.query('SELECT count(*)::int AS n FROM domain_audits WHERE monitored_domain_id = $1', [domainId]);
    expect(count[0].n).toBe(2);
  });

  it('rejects a malformed payload without retrying it', async () => {
    const id = `it-bad-${Date.now()}`;
    await queues['dns-audit'].add('dns-audit.run', { schemaVersion: 1, domain: 'Not A Domain', dkimSelectors: [], trigger: 'on-demand' } as never, {
      jobId: id,
      attempts: 3,
    });
    // With 3 attempts a retryable failure would wait in `delayed` for its backoff; this one fails for good at once.
    await waitFor(async () => (await queues['dns-audit'].getJobState(id)) === 'failed', 'the bad job to fail', 10_000);
    // Read the job after it failed: a copy fetched earlier would not carry the reason.
    const job = await queues['dns-audit'].getJob(id);
    expect(job?.failedReason).toMatch(/not normalized/);
    expect(job?.attemptsMade).toBe(1);
  });

  describe('two scheduler replicas over one Redis', () => {
    const intervalMs = 2_000;
    let schedulerConfig: ReturnType<typeof testConfig>;
    let schedulerQueues: ReturnType<typeof openQueues>;
    const apps: INestApplicationContext[] = [];
    const domainIds: string[] = [];

    beforeAll(async () => {
      schedulerConfig = testConfig({
        QUEUE_PREFIX: `${config.queue.prefix}-sched`,
        DNS_SERVERS: unbound.dohServer,
        DNS_PROTOCOL: 'http',
        DNS_TIMEOUT_MS: 400,
        DNS_TRIES: 1,
        DOMAIN_AUDIT_INTERVAL: `${intervalMs}ms`,
        MIGRATE_ON_START: false,
      });
      schedulerQueues = openQueues(schedulerConfig);
      const repository = new MonitoredDomainRepository(db);
      for (const domain of ['healthy.test', 'dmarc-none.test', 'no-bimi.test']) {
        const added = await repository.add(accountId, domain, [], 10);
        expect(added.status).toBe('created');
        if (added.status === 'created') domainIds.push(added.domain.id);
      }
    });

    afterAll(async () => {
      for (const app of apps) await app.close();
      await schedulerQueues?.closeAll();
    });

    it('audits each monitored domain exactly once per window', async () => {
      apps.push(await startWorkerDns(schedulerConfig), await startScheduler(schedulerConfig), await startScheduler(schedulerConfig));
      // Both replicas upserted the same schedule: Redis holds it once.
      const schedulers = await schedulerQueues.scheduler.getJobSchedulers();
      expect(schedulers.filter((scheduler) => scheduler.key === DRIFT_SWEEP_SCHEDULER_ID)).toEqual([expect.objectContaining({ every: intervalMs })]);
      // Three windows' worth of sweeps, then stop everything before counting.
      await waitFor(
        async () => {
          const rows = await db.query(`SELECT count(DISTINCT window_key)::int AS n FROM domain_audits WHERE monitored_domain_id = ANY($1)`, [domainIds]);
          return rows[0].n >= 3;
        },
        'three windows of scheduled audits',
        20_000,
      );
      for (const app of apps.splice(0)) await app.close();

      const perWindow: Array<{ monitored_domain_id: string; window_key: string; n: number }> = await db.query(
        `SELECT monitored_domain_id, window_key, count(*)::int AS n FROM domain_audits WHERE monitored_domain_id = ANY($1) GROUP BY 1, 2`,
        [domainIds],
      );
      expect(perWindow.every((row) => row.n === 1 && row.window_key.startsWith(`${intervalMs}-`))).toBe(true);
      const windows = [...new Set(perWindow.map((row) => row.window_key))];
      // Every domain was audited in every window a sweep ran for.
      const complete = windows.filter((window) => perWindow.filter((row) => row.window_key === window).length === domainIds.length);
      expect(complete.length).toBeGreaterThanOrEqual(2);
      const failed = await schedulerQueues['dns-audit'].getJobs(['failed']);
      expect(failed.map((job) => job.failedReason)).toEqual([]);
    });
  });
});
