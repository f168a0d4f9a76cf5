import type { DataSource } from 'typeorm';
import { createTestAccount, openDatabase } from '../utils/database';
import { deliverabilityFixtures } from '../utils/dns-fixture-zones';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { UnboundServer } from '../utils/unbound-server';
import { sleep, waitFor } from '../utils/wait';
import { MonitoredDomainRepository } from '@mailproof/persistence';
import { Deployment } from './deployment';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- autocannon ships no types
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<{ statusCodeStats?: Record<string, { count: number }>; errors: number; requests: { average: number } }>;

const EMAIL = (marker: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Scale</title></head>
<body><table role="presentation" width="600"><tr><td style="font-family:Arial,sans-serif;color:#222222;background-color:#ffffff">
<p>Replica check ${marker}.</p></td></tr></table></body></html>`;

const AUDIT_INTERVAL_MS = 3_000;

/**
 * The scale harness (npm run scale:check): built apps as separate processes over one PostgreSQL and one
 * Redis, two of each (API, worker-preview, worker-dns, scheduler), with load through both APIs. Figures
 * go to the console; assertions are about correctness (exact limits, nothing lost or done twice), never speed.
 */
describe('two replicas of every app over one PostgreSQL and Redis', () => {
  const figures: Record<string, unknown> = {};
  let unbound: UnboundServer;
  let config: ReturnType<typeof testConfig>;
  let queues: ReturnType<typeof openQueues>;
  let db: DataSource;
  let deployment: Deployment;
  let pro: { accountId: string; key: string; keyId: string };
  const domainIds: string[] = [];

  beforeAll(async () => {
    unbound = await UnboundServer.start(deliverabilityFixtures());
    const env = {
      RATE_LIMIT_FREE: '60',
      DNS_SERVERS: unbound.dohServer,
      DNS_PROTOCOL: 'http',
      DNS_TIMEOUT_MS: '400',
      DNS_TRIES: '1',
      DOMAIN_AUDIT_INTERVAL: `${AUDIT_INTERVAL_MS}ms`,
      WORKER_LOCK_DURATION_MS: '5000',
      WORKER_STALLED_INTERVAL_MS: '2000',
      LOG_LEVEL: 'warn',
    };
    config = testConfig(env);
    queues = openQueues(config);
    db = await openDatabase(config);
    pro = await createTestAccount(db, 'pro');
    deployment = await new Deployment(config, queues, env).start({ api: 2, 'worker-preview': 2, 'worker-dns': 2, scheduler: 2 });
  }, 300_000);

  afterAll(async () => {
    console.log(`scale figures: ${JSON.stringify(figures, null, 2)}`);
    await deployment?.stopAll();
    await queues?.closeAll();
    if (domainIds.length > 0) await db?.query('DELETE FROM monitored_domains WHERE id = ANY($1)', [domainIds]);
    await db?.destroy();
    await unbound?.stop();
  }, 120_000);

  const previewRows = async (accountId: string): Promise<number> =>
    (await db.query('SELECT count(*)::int AS n FROM previews WHERE account_id = $1', [accountId]))[0].n;

  it('lets exactly 60 requests of a 60-per-minute key through both APIs together', async () => {
    const free = await createTestAccount(db, 'free');
    const [a, b] = deployment.apiUrls;
    const load = (url: string) => autocannon({ url: `${url}/api/clients`, connections: 8, amount: 75, headers: { authorization: `Bearer ${free.key}` } });
    const results = await Promise.all([load(a), load(b)]);
    const count = (status: string) => results.reduce((sum, result) => sum + (result.statusCodeStats?.[status]?.count ?? 0), 0);
    figures.rateLimit = { sent: 150, ok: count('200'), limited: count('429'), perReplicaOk: results.map((result) => result.statusCodeStats?.['200']?.count ?? 0) };
    expect(count('200')).toBe(60);
    expect(count('429')).toBe(90);
    // Both replicas served some of the 60: the limit is shared, not per instance.
    expect(results.every((result) => (result.statusCodeStats?.['200']?.count ?? 0) > 0)).toBe(true);
  });

  it('refuses a revoked key on every replica within the 5 s promise', async () => {
    const account = await createTestAccount(db, 'pro');
    const [a, b] = deployment.apiUrls;
    const get = (url: string, key = account.key) => fetch(`${url}/api/clients`, { headers: { authorization: `Bearer ${key}` } });
    // Both replicas have the key in their cache.
    expect([(await get(a)).status, (await get(b)).status]).toEqual([200, 200]);
    // Revoked through one replica; the other learns of it only through PostgreSQL once its cache entry expires.
    const revoke = await fetch(`${a}/api/keys/${account.keyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${account.key}` } });
    expect(revoke.status).toBe(204);
    const revokedAt = Date.now();
    const refusedAfter: Record<string, number> = {};
    await Promise.all(
      [a, b].map((url) =>
        waitFor(async () => {
          if ((await get(url)).status !== 401) return false;
          refusedAfter[url] = Date.now() - revokedAt;
          return true;
        }, `${url} to refuse the revoked key`, 5_000, 100),
      ),
    );
    figures.revocationMs = refusedAfter;
  });

  it('processes each preview and each gate exactly once across two worker-preview replicas', async () => {
    const account = await createTestAccount(db, 'pro');
    const [a, b] = deployment.apiUrls;
    const post = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const previews = await Promise.all(Array.from({ length: 24 }, (_, i) => post(i % 2 ? a : b, '/api/preview', { html: EMAIL(`p${i}`) })));
    const gates = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i % 2 ? a : b, '/api/gate', { html: EMAIL(`g${i}`) })));
    expect(previews.map((res) => res.status)).toEqual(Array(24).fill(200));
    expect(gates.map((res) => res.status)).toEqual(Array(8).fill(200));
    const runIds = await Promise.all(gates.map(async (res) => ((await res.json()) as { runId: string }).runId));
    // One row per request: no preview or gate run was stored twice (a gate stores its preview too).
    expect(await previewRows(account.accountId)).toBe(24 + 8);
    const runs = await db.query('SELECT count(*)::int AS n FROM gate_runs WHERE id = ANY($1)', [runIds]);
    expect(runs[0].n).toBe(8);
    // And no job ran twice: every completed preview and gate job took one attempt.
    const completed = [...(await queues.preview.getJobs(['completed'])), ...(await queues.gate.getJobs(['completed']))];
    expect(completed.filter((job) => job.attemptsMade > 1).map((job) => job.id)).toEqual([]);
    figures.exactlyOnce = { previews: 24, gates: 8, storedPreviews: 24 + 8, gateRuns: 8, retriedJobs: 0 };
  });

  it('audits each monitored domain once per interval with two schedulers and two worker-dns', async () => {
    const repository = new MonitoredDomainRepository(db);
    for (const domain of ['healthy.test', 'dmarc-none.test']) {
      const added = await repository.add(pro.accountId, domain, [], 10);
      if (added.status === 'created') domainIds.push(added.domain.id);
    }
    expect(domainIds).toHaveLength(2);
    await waitFor(
      async () => (await db.query('SELECT count(DISTINCT window_key)::int AS n FROM domain_audits WHERE monitored_domain_id = ANY($1)', [domainIds]))[0].n >= 3,
      'three audit windows',
      60_000,
      250,
    );
    const perWindow: Array<{ window_key: string; n: number }> = await db.query(
      'SELECT monitored_domain_id, window_key, count(*)::int AS n FROM domain_audits WHERE monitored_domain_id = ANY($1) GROUP BY 1, 2',
      [domainIds],
    );
    figures.audits = { windows: new Set(perWindow.map((row) => row.window_key)).size, rows: perWindow.length, duplicates: perWindow.filter((row) => row.n > 1).length };
    expect(perWindow.filter((row) => row.n > 1)).toEqual([]);
  });

  it('loses nothing when a third worker-preview joins under load and one is stopped (SIGTERM)', async () => {
    const account = await createTestAccount(db, 'pro');
    const [a, b] = deployment.apiUrls;
    const body = JSON.stringify({ html: EMAIL('load') });
    // A fixed number of requests per phase (not a duration: autocannon drops the answers still in flight when
    // a duration ends, and those previews would be stored without being counted).
    const load = (url: string, amount: number) =>
      autocannon({ url: `${url}/api/preview`, method: 'POST', connections: 4, amount, headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' }, body });
    const phase = async (perApi: number) => {
      const started = Date.now();
      const results = await Promise.all([load(a, perApi), load(b, perApi)]);
      const seconds = (Date.now() - started) / 1000;
      const ok = results.reduce((sum, result) => sum + (result.statusCodeStats?.['200']?.count ?? 0), 0);
      const other = results.reduce((sum, result) => sum + Object.entries(result.statusCodeStats ?? {}).filter(([status]) => status !== '200').reduce((s, [, v]) => s + v.count, 0), 0);
      return { ok, other, errors: results.reduce((sum, result) => sum + result.errors, 0), perSecond: Math.round((ok / seconds) * 10) / 10 };
    };
    const two = await phase(20);
    const joining = deployment.add('worker-preview');
    const whileJoining = await phase(20);
    await joining;
    const three = await phase(20);
    // SIGTERM one worker-preview in the middle of a phase: its active jobs finish, the rest go to the others.
    const [leaving] = deployment.of('worker-preview');
    const stopping = (async () => {
      await sleep(3_000);
      return deployment.stop(leaving);
    })();
    const whileStopping = await phase(30);
    const exit = await stopping;
    figures.workerPool = { twoWorkers: two, whileJoining, threeWorkers: three, whileStopping, stoppedWorkerExit: exit };
    for (const result of [two, whileJoining, three, whileStopping]) expect({ other: result.other, errors: result.errors }).toEqual({ other: 0, errors: 0 });
    expect(exit).toBe(0);
    // Every 200 is one stored preview: nothing lost, nothing stored twice.
    expect(await previewRows(account.accountId)).toBe(two.ok + whileJoining.ok + three.ok + whileStopping.ok);
  });
});
