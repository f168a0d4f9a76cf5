import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { MonitoredDomainRepository } from '@mailproof/persistence';
import { createTestAccount, openDatabase } from '../utils/database';
import { deliverabilityFixtures } from '../utils/dns-fixture-zones';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { UnboundServer } from '../utils/unbound-server';
import { sleep, waitFor } from '../utils/wait';
import { Deployment } from './deployment';
import { descendantPids, stillRunning } from './proc-stats';

/**
 * kill -9 of each worker kind under load (docs/operations.md, "Outages"): built apps as separate
 * processes over the test's PostgreSQL and Redis; work of one kind is in flight, that kind's process is
 * killed with SIGKILL and a replacement started. Asserted: 0 lost (every job completes, every row is
 * there) and 0 duplicated (one row per request; webhooks: one delivery row per event and endpoint, and
 * the receiver sees one webhook-id per event, more than once only for the attempt cut by the kill, as
 * docs/webhooks.md promises: at least once, the same webhook-id on every attempt).
 * A plain preview under a worker-preview kill is test/integration/preview-faults.int-spec.ts; here
 * worker-preview dies under gate runs, whose chains cross the preview, link-check and gate queues.
 */
/**
 * worker-render paints and decodes screenshots on its own event loop: on a busy 2-core machine a 3 s lock
 * can expire under a healthy render, which BullMQ counts as a second stall. Its lock is longer here.
 */
const RENDER_ENV = { WORKER_LOCK_DURATION_MS: '15000', WORKER_STALLED_INTERVAL_MS: '2000' };
/** worker-preview likewise, while its replacement warms its compile processes and analysis threads. */
const PREVIEW_ENV = { WORKER_LOCK_DURATION_MS: '15000', WORKER_STALLED_INTERVAL_MS: '2000' };

describe('kill -9 of each worker kind under load', () => {
  const figures: Record<string, unknown> = {};
  let unbound: UnboundServer;
  let config: ReturnType<typeof testConfig>;
  let queues: ReturnType<typeof openQueues>;
  let db: DataSource;
  let deployment: Deployment;
  let apiUrl: string;
  let receiver: http.Server;
  let base: string;
  /** Requests the loopback server received, by path (links and webhook deliveries). */
  const received: Array<{ path: string; webhookId?: string }> = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push({ path: req.url ?? '/', webhookId: req.headers['webhook-id'] as string | undefined });
        // Slow answers keep links and deliveries in flight when the kill lands.
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), 700);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    unbound = await UnboundServer.start(deliverabilityFixtures());
    const env = {
      SSRF_ALLOWED_ADDRESSES: '127.0.0.1',
      LINK_CHECK_CACHE_SECONDS: '0',
      GATE_LINKS_BUDGET_MS: '30000',
      DNS_SERVERS: unbound.dohServer,
      DNS_PROTOCOL: 'http',
      DNS_TIMEOUT_MS: '1500',
      DNS_TRIES: '1',
      DOMAIN_AUDIT_INTERVAL: '3s',
      WEBHOOK_ATTEMPTS: '6',
      WEBHOOK_BACKOFF_MS: '200',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_RELAY_EVERY_SECONDS: '1',
      WEBHOOK_ENDPOINT_LIMIT: '40',
      // Short locks: a killed worker's jobs come back within seconds, not 30 s.
      WORKER_LOCK_DURATION_MS: '3000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      WORKER_RENDER_CONCURRENCY: '2',
      PREVIEW_RENDER_WAIT_MS: '0',
      LOG_LEVEL: 'warn',
    };
    config = testConfig(env);
    queues = openQueues(config);
    db = await openDatabase(config);
    deployment = await new Deployment(config, queues, env).start({ api: 1, 'worker-dns': 1, scheduler: 1 });
    await deployment.add('worker-preview', PREVIEW_ENV);
    await deployment.add('worker-render', RENDER_ENV);
    apiUrl = deployment.apiUrls[0];
  }, 240_000);

  afterAll(async () => {
    console.log(`worker kill figures: ${JSON.stringify(figures, null, 2)}`);
    await deployment?.stopAll();
    await queues?.closeAll();
    await db?.destroy();
    await unbound?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  }, 120_000);

  const post = async (path: string, key: string, body: unknown) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  /**
   * SIGKILL the one replica of `kind` once `ready` holds (work in flight), then start a replacement. The
   * killed process's own children (worker-render's Chromium, worker-preview's compile processes) must end
   * with it: nothing may be left running with nobody to stop it.
   */
  const killAndReplace = async (kind: string, ready: () => Promise<boolean>, env: Record<string, string> = {}) => {
    await waitFor(ready, `work in flight on ${kind}`, 60_000, 50);
    const [victim] = deployment.of(kind);
    const children = descendantPids(victim.process.child.pid!);
    const killedAt = Date.now();
    const signal = await deployment.stop(victim, 'SIGKILL');
    const replacement = await deployment.add(kind, env);
    await waitFor(
      async () => stillRunning(children).length === 0,
      `the killed ${kind}'s ${children.length} child processes (pids ${children.join(', ')}) to end`,
      15_000,
      100,
    );
    return { signal, replacedAfterMs: Date.now() - killedAt, replacementPid: replacement.process.child.pid, childProcessesEnded: children.length };
  };

  const active = async (queue: keyof typeof queues & string) => ((await queues[queue as 'preview'].getActiveCount()) as number) > 0;

  it('worker-render: every screenshot of every preview is stored once', async () => {
    const account = await createTestAccount(db, 'pro');
    const html = (n: number) =>
      `<!doctype html><html><body style="margin:0;background:#fff"><div style="width:200px;height:80px;background:#${(0x100000 + n * 4099).toString(16).slice(-6)}"></div><p>Render ${n}</p></body></html>`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) => post('/api/preview', account.key, { html: html(n), clients: ['gmail-web'], screenshots: true })),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const ids = answers.map((answer) => answer.body.id as string);
    const kill = await killAndReplace('worker-render', () => active('render'), RENDER_ENV);
    // Per preview: Gmail's light and dark screenshots and the reference rendering of its viewport, light and dark (docs/visual.md).
    const perPreview = 4;
    await waitFor(
      async () => (await db.query('SELECT count(*)::int AS n FROM preview_screenshots WHERE preview_id = ANY($1)', [ids]))[0].n === ids.length * perPreview,
      'every preview to have its light and dark screenshot and references',
      120_000,
      250,
    );
    const shots: Array<{ preview_id: string; n: number }> = await db.query(
      'SELECT preview_id, count(*)::int AS n FROM preview_screenshots WHERE preview_id = ANY($1) GROUP BY 1',
      [ids],
    );
    expect(shots.map((row) => row.n)).toEqual(Array(ids.length).fill(perPreview));
    const jobs = (await queues.render.getJobs(['completed', 'failed'])).filter((job) => ids.includes((job.data as { previewId: string }).previewId));
    expect(jobs.filter((job) => job.finishedOn && job.failedReason)).toEqual([]);
    figures.workerRender = {
      previews: ids.length,
      screenshots: ids.length * 2,
      ...kill,
      redelivered: jobs.filter((job) => job.attemptsStarted > 1).length,
      lost: 0,
      duplicated: 0,
    };
  }, 240_000);

  it('worker-dns (dns-audit): every on-demand audit is stored once', async () => {
    const account = await createTestAccount(db, 'pro');
    const domains = [
      'healthy.test',
      'dmarc-none.test',
      'spf-eleven.test',
      'no-dmarc.test',
      'healthy.test',
      'dmarc-none.test',
      'spf-eleven.test',
      'no-dmarc.test',
    ];
    const requests = Promise.all(domains.map((domain) => post('/api/deliverability', account.key, { domain })));
    const kill = await killAndReplace('worker-dns', () => active('dns-audit'));
    const answers = await requests;
    for (const answer of answers) expect([200, 503]).toContain(answer.status);
    const jobsOf = async () =>
      (await queues['dns-audit'].getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])).filter(
        (job) => (job.data as { accountId?: string }).accountId === account.accountId,
      );
    await waitFor(async () => (await jobsOf()).every((job) => job.finishedOn), 'every audit job to finish', 60_000, 250);
    const jobs = await jobsOf();
    expect(jobs).toHaveLength(domains.length);
    expect(jobs.filter((job) => job.failedReason)).toEqual([]);
    const rows: Array<{ job_id: string }> = await db.query("SELECT job_id FROM domain_audits WHERE account_id = $1 AND trigger = 'on-demand'", [
      account.accountId,
    ]);
    expect(rows.map((row) => row.job_id).sort()).toEqual(jobs.map((job) => job.id).sort());
    figures.workerDnsAudits = {
      requests: domains.length,
      answers: answers.map((answer) => answer.status),
      rows: rows.length,
      ...kill,
      redelivered: jobs.filter((job) => job.attemptsStarted > 1).length,
      lost: 0,
      duplicated: 0,
    };
  }, 240_000);

  it('worker-dns (webhook): every event is delivered, with one webhook-id per event', async () => {
    const account = await createTestAccount(db, 'pro');
    const path = `/hooks-${Date.now()}`;
    const created = await post('/api/webhooks', account.key, { url: `${base}${path}`, events: ['domain.drift'] });
    expect(created.status).toBe(201);
    const endpointId = created.body.id as string;
    const tests = await Promise.all(Array.from({ length: 12 }, () => post(`/api/webhooks/${endpointId}/test`, account.key, {})));
    for (const answer of tests) expect(answer.status).toBe(202);
    const kill = await killAndReplace('worker-dns', async () => received.some((item) => item.path === path));
    const deliveries = async () =>
      (await db.query('SELECT d.id, d.status, d.attempts, d.event_id FROM webhook_deliveries d WHERE d.endpoint_id = $1', [endpointId])) as Array<{
        id: string;
        status: string;
        attempts: number;
        event_id: string;
      }>;
    await waitFor(async () => (await deliveries()).every((row) => row.status !== 'pending'), 'every delivery to settle', 90_000, 250);
    const rows = await deliveries();
    expect(rows).toHaveLength(tests.length);
    expect(rows.filter((row) => row.status !== 'delivered')).toEqual([]);
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(tests.length);
    // The receiver saw every event, each under its own webhook-id; an event more than once only when the
    // kill cut its attempt (at least once, same webhook-id: docs/webhooks.md).
    const got = received.filter((item) => item.path === path);
    const perEvent = new Map<string, number>();
    for (const item of got) perEvent.set(item.webhookId!, (perEvent.get(item.webhookId!) ?? 0) + 1);
    expect([...perEvent.keys()].sort()).toEqual(rows.map((row) => row.event_id).sort());
    const resent = [...perEvent.values()].filter((n) => n > 1).length;
    expect(resent).toBeLessThanOrEqual(config.webhooks.concurrency);
    figures.workerDnsWebhooks = {
      events: tests.length,
      deliveryRows: rows.length,
      received: got.length,
      eventsSentTwice: resent,
      ...kill,
      lost: 0,
      duplicatedRows: 0,
    };
  }, 240_000);

  it('worker-preview under gate runs with link checks (preview, link-check and gate queues): every run completes once', async () => {
    const account = await createTestAccount(db, 'pro');
    const marker = `gate-${Date.now()}`;
    const html = (n: number) =>
      `<!doctype html><html lang="en"><head><title>Gate ${n}</title></head><body>${Array.from({ length: 3 }, (_, i) => `<p><a href="${base}/${marker}/${n}/${i}">Link ${i}</a></p>`).join('')}</body></html>`;
    const runs = Promise.all(Array.from({ length: 8 }, (_, n) => post('/api/gate', account.key, { html: html(n), resolveLinks: true })));
    const kill = await killAndReplace('worker-preview', async () => received.some((item) => item.path.startsWith(`/${marker}/`)), PREVIEW_ENV);
    const answers = await runs;
    for (const answer of answers) expect([200, 503]).toContain(answer.status);
    const runIds = answers.map((answer) => (answer.body.runId ?? answer.body.id) as string);
    expect(runIds.every(Boolean)).toBe(true);
    await waitFor(
      async () => (await db.query("SELECT count(*)::int AS n FROM gate_runs WHERE id = ANY($1) AND status <> 'running'", [runIds]))[0].n === runIds.length,
      'every gate run to finish',
      90_000,
      250,
    ).catch(async (error: Error) => {
      // Say where each chain stands: the runs' rows and the state of every job of the three queues.
      const stuck = await db.query('SELECT id, status, preview_id FROM gate_runs WHERE id = ANY($1)', [runIds]);
      const states = await Promise.all(
        (['gate', 'preview', 'link-check'] as const).map(async (queue) => {
          const jobs = await queues[queue].getJobs(['waiting', 'active', 'delayed', 'waiting-children', 'failed', 'completed']);
          return Promise.all(jobs.map(async (job) => `${queue}/${job.id}: ${await job.getState()} started ${job.attemptsStarted} ${job.failedReason ?? ''}`));
        }),
      );
      throw new Error(`${error.message}\nruns: ${JSON.stringify(stuck)}\n${states.flat().join('\n')}`);
    });
    const statuses: Array<{ status: string; failure: unknown }> = await db.query('SELECT status, failure FROM gate_runs WHERE id = ANY($1)', [runIds]);
    expect(statuses.filter((row) => row.status !== 'completed')).toEqual([]);
    // One preview per run: nothing stored twice.
    expect((await db.query('SELECT count(*)::int AS n FROM previews WHERE account_id = $1', [account.accountId]))[0].n).toBe(runIds.length);
    // Every link of every run is accounted for: checked, or listed unchecked with its reason (a link step
    // redelivered after the run's deadline reports its links `budget`, as docs/gate.md says).
    const links = await Promise.all(
      runIds.map(async (id) => {
        const res = await fetch(`${apiUrl}/api/gate/runs/${id}`, { headers: { authorization: `Bearer ${account.key}` } });
        expect(res.status).toBe(200);
        // A completed run carries its verdict (the POST answer) under `verdict`.
        return ((await res.json()) as { verdict: { links: { checked: number; unchecked: Array<{ reason: string }> } } }).verdict.links;
      }),
    );
    expect(links.map((entry) => entry.checked + entry.unchecked.length)).toEqual(Array(runIds.length).fill(3));
    const linkHits = received.filter((item) => item.path.startsWith(`/${marker}/`));
    const checked = links.reduce((sum, entry) => sum + entry.checked, 0);
    expect(new Set(linkHits.map((item) => item.path)).size).toBeGreaterThanOrEqual(checked);
    figures.workerPreviewGates = {
      runs: runIds.length,
      answers: answers.map((answer) => answer.status),
      links: runIds.length * 3,
      checked,
      unchecked: links.flatMap((entry) => entry.unchecked.map((item) => item.reason)),
      linkRequests: linkHits.length,
      ...kill,
      lost: 0,
      duplicated: 0,
    };
  }, 240_000);

  it('scheduler: monitored domains are audited once per window before and after the kill', async () => {
    const account = await createTestAccount(db, 'pro');
    const repository = new MonitoredDomainRepository(db);
    const domainIds: string[] = [];
    for (const domain of ['healthy.test', 'dmarc-none.test']) {
      const added = await repository.add(account.accountId, domain, [], 10);
      if (added.status === 'created') domainIds.push(added.domain.id);
    }
    expect(domainIds).toHaveLength(2);
    const windows = async () =>
      (await db.query('SELECT count(DISTINCT window_key)::int AS n FROM domain_audits WHERE monitored_domain_id = ANY($1)', [domainIds]))[0].n as number;
    const kill = await killAndReplace('scheduler', async () => (await windows()) >= 2);
    const before = await windows();
    await waitFor(async () => (await windows()) >= before + 2, 'two more audit windows after the replacement', 60_000, 250);
    await sleep(1_000);
    const perWindow: Array<{ window_key: string; n: number }> = await db.query(
      'SELECT monitored_domain_id, window_key, count(*)::int AS n FROM domain_audits WHERE monitored_domain_id = ANY($1) GROUP BY 1, 2',
      [domainIds],
    );
    expect(perWindow.filter((row) => row.n > 1)).toEqual([]);
    await db.query('DELETE FROM monitored_domains WHERE id = ANY($1)', [domainIds]);
    figures.scheduler = { windows: new Set(perWindow.map((row) => row.window_key)).size, audits: perWindow.length, ...kill, duplicated: 0 };
  }, 240_000);
});
