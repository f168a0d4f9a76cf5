import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createTestAccount, openDatabase } from '../utils/database';
import { TestPostgresServer } from '../utils/postgres-server';
import { activationsByJob, openQueues } from '../utils/queues';
import { TestRedisServer } from '../utils/redis-server';
import { testConfig } from '../utils/test-config';
import { sleep, waitFor } from '../utils/wait';
import { Deployment } from './deployment';
import { startSteadyLoad, statusCounts, type LoadAnswer } from './steady-load';

const EMAIL = (n: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Restart</title></head>
<body><table role="presentation" width="600"><tr><td style="font-family:Arial,sans-serif;color:#222222;background-color:#ffffff">
<p>Store restart check ${n}.</p></td></tr></table></body></html>`;

const OUTAGE_MS = 5_000;

/**
 * The stores restarted under load (docs/operations.md, "Outages"): a PostgreSQL cluster and a Redis
 * (append-only file, as docker/redis.conf) of this suite's own, on ports of their own, under an API and
 * a worker-preview started as built processes. Clients POST previews all the time; the store is stopped
 * for a few seconds and started again. Asserted: what clients see meanwhile (503 problem+json with
 * Retry-After, never a 500 or a hang), that no process needed a restart, and that every preview a
 * client was given an id for is stored once and completed.
 */
describe('PostgreSQL and Redis restarted under load', () => {
  const figures: Record<string, unknown> = {};
  let pg: TestPostgresServer;
  let redis: TestRedisServer;
  let config: ReturnType<typeof testConfig>;
  let queues: ReturnType<typeof openQueues>;
  let db: DataSource;
  let deployment: Deployment;
  let apiUrl: string;

  beforeAll(async () => {
    [pg, redis] = await Promise.all([TestPostgresServer.start(), TestRedisServer.start({ persistent: true })]);
    await pg.migrate();
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      PREVIEW_BUDGET_MS: '4000',
      WORKER_LOCK_DURATION_MS: '5000',
      WORKER_STALLED_INTERVAL_MS: '2000',
      LOG_LEVEL: 'warn',
    };
    config = testConfig(env);
    queues = openQueues(config);
    // The test's own handles live through the outages too: their connection errors are expected.
    for (const queue of Object.values(queues)) if (typeof queue === 'object') queue.on('error', () => undefined);
    db = await openDatabase(config);
    deployment = await new Deployment(config, queues, env).start({ api: 1, 'worker-preview': 1 });
    apiUrl = deployment.apiUrls[0];
  }, 180_000);

  afterAll(async () => {
    console.log(`store restart figures: ${JSON.stringify(figures, null, 2)}`);
    await deployment?.stopAll();
    await queues?.closeAll(false);
    await db?.destroy().catch(() => undefined);
    await redis?.destroy();
    await pg?.destroy();
  }, 120_000);

  /** A process's output without its warnings (the outage's expected ones would hide the rest). */
  const quiet = (output: string) =>
    output
      .split('\n')
      .filter((line) => !line.startsWith('{"level":40'))
      .join('\n');

  /** Fails with the processes' last output, to see why. */
  const orExplain = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      const outputs = deployment.replicas.map(
        (replica) =>
          `--- ${replica.kind} (${replica.process.child.exitCode ?? replica.process.child.signalCode ?? 'running'}):\n${quiet(replica.process.output()).slice(-4_000)}`,
      );
      const saved = join(tmpdir(), `mailproof-store-restarts-${Date.now()}.log`);
      writeFileSync(saved, deployment.replicas.map((replica) => `--- ${replica.kind}:\n${replica.process.output()}`).join('\n'));
      const cause = error instanceof Error && error.cause ? ` (cause: ${String((error.cause as Error).message ?? error.cause)})` : '';
      throw new Error(`${error instanceof Error ? error.message : String(error)}${cause} (whole output: ${saved})\n${outputs.join('\n')}`, { cause: error });
    }
  };

  const pids = () =>
    deployment.replicas.map(
      (replica) => `${replica.kind}:${replica.process.child.pid}:${replica.process.child.exitCode ?? replica.process.child.signalCode ?? 'running'}`,
    );

  /**
   * The API's readiness. fetch shares its keep-alive sockets with the load's requests, and the API closes
   * a connection it answered before reading the body (a 503 during the outage): a socket picked just as it
   * closes fails with "fetch failed" although the API is fine. So a network error is tried again twice;
   * a crashed API still fails here, and the PID check below would catch one that restarted.
   */
  const ready = async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const res = await fetch(`${apiUrl}/health/ready`, { signal: AbortSignal.timeout(5_000) });
        return { status: res.status, body: (await res.json()) as { details?: Record<string, { status: string }> } };
      } catch (error) {
        if (attempt >= 3 || (error as Error).name === 'TimeoutError') throw error;
        await sleep(100);
      }
    }
  };

  /** Steady preview load by a Pro account (its rows are the account's: every one can be counted). */
  const load = (key: string) =>
    startSteadyLoad({
      url: `${apiUrl}/api/preview`,
      body: (n) => ({ html: EMAIL(n), clients: ['gmail-web', 'apple-mail-ios'] }),
      headers: { authorization: `Bearer ${key}` },
      connections: 4,
    });

  /** Waits until no preview of the account is queued; returns the ids by status. */
  const settledPreviews = async (accountId: string) => {
    await waitFor(
      async () => (await db.query("SELECT count(*)::int AS n FROM previews WHERE account_id = $1 AND status = 'queued'", [accountId]))[0].n === 0,
      'every preview of the account to leave the queued state',
      90_000,
      250,
    );
    const rows: Array<{ id: string; status: string }> = await db.query('SELECT id, status FROM previews WHERE account_id = $1', [accountId]);
    return rows;
  };

  /** Every id a client was given (a 200, or a 503 that left the preview queued) is stored once and completed. */
  const expectNothingLost = (answers: LoadAnswer[], rows: Array<{ id: string; status: string }>) => {
    const given = answers.filter((answer) => answer.id).map((answer) => answer.id!);
    expect(new Set(given).size).toBe(given.length);
    const stored = new Map(rows.map((row) => [row.id, row.status]));
    expect(given.filter((id) => stored.get(id) !== 'completed')).toEqual([]);
    expect(rows.filter((row) => row.status !== 'completed')).toEqual([]);
    return given.length;
  };

  /** Preview jobs that ran more than once (put back while the store was down, or taken again after a stall). */
  const jobsRunMoreThanOnce = async (ids: string[]) => {
    const taken = await activationsByJob(queues.preview);
    return ids.filter((id) => (taken.get(`preview.analyze-${id}`) ?? 0) > 1).length;
  };

  it('answers 503 with Retry-After while PostgreSQL is down, and stores every accepted preview once it is back', async () => {
    const account = await createTestAccount(db, 'pro');
    const before = pids();
    const traffic = load(account.key);
    await waitFor(() => traffic.answers.filter((answer) => answer.status === 200).length >= 4, 'a few previews before the outage', 60_000, 100);

    const stopAt = Date.now();
    await pg.stop();
    const downAt = Date.now();
    const readiness = await orExplain(ready());
    await sleep(OUTAGE_MS);
    const resumeAt = Date.now();
    await pg.resume();
    const upAt = Date.now();
    await orExplain(waitFor(async () => (await ready()).body.details?.postgres?.status === 'up', 'readiness to report PostgreSQL up again', 60_000, 200));
    const readyAfterMs = Date.now() - upAt;
    // Steady traffic after the outage too: the API serves again without a restart.
    const okAfter = traffic.answers.filter((answer) => answer.status === 200 && answer.startedAt > upAt).length;
    await waitFor(
      () => traffic.answers.filter((answer) => answer.status === 200 && answer.startedAt > upAt).length >= okAfter + 4,
      'previews to succeed after the outage',
      60_000,
      100,
    );
    const answers = await traffic.stop();

    // While PostgreSQL was down (answers asked and given within the outage): 503 problem+json with Retry-After.
    const duringOutage = answers.filter((answer) => answer.startedAt >= downAt && answer.endedAt <= resumeAt);
    expect(duringOutage.length).toBeGreaterThan(0);
    for (const answer of duringOutage) {
      expect({ status: answer.status, code: answer.code, error: answer.error }).toEqual({ status: 503, code: 'service_unavailable', error: undefined });
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect(readiness.status).toBe(503);
    expect(readiness.body.details?.postgres?.status).toBe('down');
    // Never a 500 or a hang, before, during or after: only 200 and the documented 503.
    expect(answers.filter((answer) => answer.status !== 200 && !(answer.status === 503 && answer.code === 'service_unavailable'))).toEqual([]);

    // No process needed a restart: the same PIDs, all running.
    expect(pids()).toEqual(before);
    const rows = await settledPreviews(account.accountId);
    const accepted = expectNothingLost(answers, rows);
    const retried = await jobsRunMoreThanOnce(rows.map((row) => row.id));
    expect(await queues.preview.getFailedCount()).toBe(0);
    figures.postgresRestart = {
      stopMs: downAt - stopAt,
      outageMs: upAt - stopAt,
      startMs: upAt - resumeAt,
      readyAgainAfterMs: readyAfterMs,
      answers: statusCounts(answers),
      duringOutage: {
        answers: duringOutage.length,
        status503: duringOutage.filter((answer) => answer.status === 503).length,
        slowestMs: Math.max(...duringOutage.map((answer) => answer.endedAt - answer.startedAt)),
      },
      acceptedIds: accepted,
      storedRows: rows.length,
      retriedJobs: retried,
      lost: 0,
      duplicated: 0,
      sameProcesses: true,
    };
  }, 240_000);

  it('keeps the queued jobs across a Redis restart (append-only file) and completes them, answering 503 at once meanwhile', async () => {
    const account = await createTestAccount(db, 'pro');
    const before = pids();
    const traffic = load(account.key);
    await waitFor(() => traffic.answers.filter((answer) => answer.status === 200).length >= 4, 'a few previews before the outage', 60_000, 100);
    // A burst the one worker cannot finish at once: jobs wait in Redis when it stops.
    const burst = Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        fetch(`${apiUrl}/api/preview`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${account.key}` },
          body: JSON.stringify({ html: EMAIL(1_000 + n) }),
          signal: AbortSignal.timeout(30_000),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as { id?: string; code?: string } })),
      ),
    );
    const inQueue = async () => {
      const counts = await queues.preview.getJobCounts('waiting', 'active');
      return counts.waiting + counts.active;
    };
    await waitFor(async () => (await inQueue()) >= 3, 'jobs waiting or active in the preview queue', 30_000, 20);
    const waitingAtStop = await inQueue();

    const stopAt = Date.now();
    await redis.stop();
    const downAt = Date.now();
    await sleep(OUTAGE_MS);
    const resumeAt = Date.now();
    await redis.resume();
    const upAt = Date.now();
    await orExplain(
      waitFor(
        async () => {
          const { details } = (await ready()).body;
          return details?.redis?.status === 'up' && details['queue:preview']?.status === 'up';
        },
        'readiness to report Redis and the worker up again',
        60_000,
        200,
      ),
    );
    const readyAfterMs = Date.now() - upAt;
    await waitFor(
      () => traffic.answers.filter((answer) => answer.status === 200 && answer.startedAt > upAt).length >= 4,
      'previews to succeed after the restart',
      60_000,
      100,
    );
    const answers = await traffic.stop();
    const burstAnswers = await burst;

    const duringOutage = answers.filter((answer) => answer.startedAt >= downAt && answer.endedAt <= resumeAt);
    expect(duringOutage.length).toBeGreaterThan(0);
    for (const answer of duringOutage) {
      expect({ status: answer.status, code: answer.code, error: answer.error }).toEqual({ status: 503, code: 'service_unavailable', error: undefined });
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    for (const answer of burstAnswers) expect([200, 503]).toContain(answer.status);
    expect(answers.filter((answer) => answer.status !== 200 && !(answer.status === 503 && answer.code === 'service_unavailable'))).toEqual([]);

    expect(pids()).toEqual(before);
    const rows = await settledPreviews(account.accountId);
    const burstIds = burstAnswers.filter((answer) => answer.body.id).map((answer) => answer.body.id!);
    const accepted = expectNothingLost([...answers, ...burstIds.map((id) => ({ id }) as LoadAnswer)], rows);
    expect(await queues.preview.getFailedCount()).toBe(0);
    figures.redisRestart = {
      outageMs: upAt - stopAt,
      stopMs: downAt - stopAt,
      readyAgainAfterMs: readyAfterMs,
      queuedJobsAtStop: waitingAtStop,
      answers: statusCounts(answers),
      burst: statusCounts(burstAnswers as unknown as LoadAnswer[]),
      duringOutage: {
        answers: duringOutage.length,
        status503: duringOutage.length,
        slowestMs: Math.max(...duringOutage.map((answer) => answer.endedAt - answer.startedAt)),
      },
      acceptedIds: accepted,
      storedRows: rows.length,
      retriedJobs: await jobsRunMoreThanOnce(rows.map((row) => row.id)),
      lost: 0,
      duplicated: 0,
      sameProcesses: true,
    };
  }, 240_000);
});
