import { createServer } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { startWorkerDns } from '../../apps/worker-dns/src/start-worker-dns';
import { createTestAccount } from '../utils/database';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { describeWithUnbound, startDnsStack, type DnsStack } from '../utils/dns-stack';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

// The API and worker-dns in-process, over HTTP, against unbound serving the fixture zones.
describeWithUnbound('POST /api/deliverability', () => {
  let stack: DnsStack;
  let api: DnsStack['api'];
  let account: { accountId: string; key: string };

  beforeAll(async () => {
    stack = await startDnsStack({ DELIVERABILITY_BUDGET_MS: 8_000 });
    api = stack.api;
    account = await createTestAccount(stack.db, 'free');
  });

  afterAll(async () => {
    if (!stack) return;
    await stack.db.query('DELETE FROM domain_audits WHERE account_id = $1', [account.accountId]);
    await stack.db.query('DELETE FROM accounts WHERE id = $1', [account.accountId]);
    await stack.stop();
  });

  const post = (body: object, key: string | null = account.key) => {
    const call = request(api.url).post('/api/deliverability').send(body);
    return key ? call.set('Authorization', `Bearer ${key}`) : call;
  };

  it('needs a key', async () => {
    const response = await post({ domain: 'healthy.test' }, null).expect(401);
    expect(response.body.code).toBe('unauthorized');
  });

  it('answers the interface 2.5 result with checks and issues', async () => {
    const response = await post({ domain: 'healthy.test' }).expect(200);
    expect(response.body).toMatchObject({
      domain: 'healthy.test',
      score: 100,
      spf: { valid: true, record: 'v=spf1 include:_spf.provider.test mx -all', lookups: 2 },
      dkim: { valid: true, selector: 'selector1' },
      dmarc: { valid: true, policy: 'reject', record: 'v=DMARC1; p=reject; rua=mailto:dmarc@healthy.test' },
      mx: { valid: true, hosts: ['mx1.healthy.test', 'mx2.healthy.test'] },
      bimi: { valid: true, indicatorUrl: 'https://healthy.test/logo.svg' },
      checks: { mx: { status: 'pass' }, spf: { status: 'pass' }, dkim: { status: 'pass' }, dmarc: { status: 'pass' }, bimi: { status: 'pass' } },
      inconclusive: false,
    });
    expect(Array.isArray(response.body.issues)).toBe(true);
    expect(Date.parse(response.body.checkedAt)).not.toBeNaN();
    // The audit is stored for the account that asked.
    const rows = await stack.db.query('SELECT trigger, account_id FROM domain_audits WHERE domain = $1 AND account_id = $2', [
      'healthy.test',
      account.accountId,
    ]);
    expect(rows).toContainEqual({ trigger: 'on-demand', account_id: account.accountId });
  });

  it('normalizes what people paste: scheme, path, case, trailing dot', async () => {
    const response = await post({ domain: 'HTTPS://Healthy.TEST./about?x=1' }).expect(200);
    expect(response.body.domain).toBe('healthy.test');
  });

  it('probes the DKIM selectors it is given', async () => {
    const response = await post({ domain: 'weak-dkim.test', dkimSelectors: ['Google'] }).expect(200);
    expect(response.body.dkim).toMatchObject({ valid: true, selector: 'google' });
    expect(response.body.checks.dkim.status).toBe('warn');
    expect(response.body.issues).toContainEqual(expect.objectContaining({ check: 'dkim', rule: 'dkim_weak_key', severity: 'warning' }));
  });

  it('reports broken records as failures with their rule', async () => {
    const response = await post({ domain: 'spf-eleven.test' }).expect(200);
    expect(response.body.spf).toMatchObject({ valid: false, lookups: 11 });
    expect(response.body.checks.spf.status).toBe('fail');
    expect(response.body.score).toBeLessThan(100);
  });

  it('answers a name whose DNS times out with skipped checks, not an error', async () => {
    const response = await post({ domain: 'slow.test' }).expect(200);
    // Nothing answered: no score (a 0 would read as a failing domain), and the answer says why.
    expect(response.body).toMatchObject({ score: null, inconclusive: true });
    expect(Object.values(response.body.checks).map((check) => (check as { status: string }).status)).toEqual(['skip', 'skip', 'skip', 'skip', 'skip']);
  });

  it.each([
    ['192.0.2.1', 'ip_literal'],
    ['[2001:db8::1]', 'ip_literal'],
    ['localhost', 'single_label'],
    [`${'a'.repeat(64)}.test`, 'label_too_long'],
    [`${Array.from({ length: 60 }, () => 'abcd').join('.')}.test`, 'too_long'],
    ['exa mple.test', 'invalid_characters'],
  ])('refuses %s with a 400 (%s)', async (domain, reason) => {
    const response = await post({ domain }).expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ code: 'validation_failed', reason, errors: [{ field: 'domain' }] });
  });

  it('refuses bad DKIM selectors and unknown fields', async () => {
    expect((await post({ domain: 'healthy.test', dkimSelectors: ['bad selector'] }).expect(400)).body.errors[0].field).toBe('dkimSelectors.0');
    await post({ domain: 'healthy.test', extra: true }).expect(400);
    await post({}).expect(400);
  });

  describe('when no DNS server answers at all', () => {
    let downApi: RunningApi;
    let downWorker: INestApplicationContext;
    let downQueues: ReturnType<typeof openQueues>;

    beforeAll(async () => {
      // A loopback port that was just free: every DoH request is refused. Own queue prefix, so only this worker takes the jobs.
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port: free } = probe.address() as { port: number };
          probe.close(() => resolve(free));
        });
      });
      const downConfig = testConfig({
        QUEUE_PREFIX: `${stack.config.queue.prefix}-dnsdown`,
        DNS_SERVERS: `127.0.0.1:${port}`,
        DNS_PROTOCOL: 'http',
        DNS_TIMEOUT_MS: 400,
        DNS_TRIES: 1,
        DELIVERABILITY_BUDGET_MS: 8_000,
      });
      downQueues = openQueues(downConfig);
      downWorker = await startWorkerDns(downConfig);
      downApi = await startTestApi(downConfig);
    });

    afterAll(async () => {
      await downApi?.close();
      await downWorker?.close();
      await downQueues?.closeAll();
    });

    it('answers 200 with every check skipped, score null and inconclusive: true', async () => {
      // A name no other suite resolves, so no cached answer can stand in for the missing server.
      const response = await request(downApi.url).post('/api/deliverability').set('x-api-key', account.key).send({ domain: 'nobody-answers.test' }).expect(200);
      expect(response.body).toMatchObject({ domain: 'nobody-answers.test', score: null, inconclusive: true });
      expect(Object.values(response.body.checks).map((check) => (check as { status: string }).status)).toEqual(['skip', 'skip', 'skip', 'skip', 'skip']);
      expect(response.body.checks.mx.message).toMatch(/^MX not checked: /);
      const rows = await stack.db.query('SELECT score, inconclusive FROM domain_audits WHERE domain = $1 AND account_id = $2', [
        'nobody-answers.test',
        account.accountId,
      ]);
      expect(rows).toEqual([{ score: null, inconclusive: true }]);
    });
  });

  describe('when no worker answers within the budget', () => {
    let slowApi: RunningApi;
    let slowQueues: ReturnType<typeof openQueues>;

    beforeAll(async () => {
      // A queue prefix no worker listens on, and the smallest budget.
      const slowConfig = testConfig({ QUEUE_PREFIX: `${stack.config.queue.prefix}-idle`, DELIVERABILITY_BUDGET_MS: 300 });
      slowQueues = openQueues(slowConfig);
      slowApi = await startTestApi(slowConfig);
    });

    afterAll(async () => {
      await slowApi?.close();
      await slowQueues?.closeAll();
    });

    it('answers 503 service_unavailable with Retry-After', async () => {
      const response = await request(slowApi.url).post('/api/deliverability').set('x-api-key', account.key).send({ domain: 'healthy.test' }).expect(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(typeof response.body.jobId).toBe('string');
    });
  });
});
