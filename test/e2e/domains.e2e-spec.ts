import request from 'supertest';
import { createTestAccount } from '../utils/database';
import { describeWithUnbound, startDnsStack, type DnsStack } from '../utils/dns-stack';
import { waitFor } from '../utils/wait';

// Monitored domains over HTTP: the API and worker-dns in-process, unbound serving the fixtures.
describeWithUnbound('/api/domains', () => {
  let stack: DnsStack;
  let api: DnsStack['api'];
  let free: { accountId: string; key: string };
  let other: { accountId: string; key: string };
  let outage: { accountId: string; key: string };

  beforeAll(async () => {
    stack = await startDnsStack({ DOMAIN_LIMIT_FREE: 3 });
    api = stack.api;
    free = await createTestAccount(stack.db, 'free');
    other = await createTestAccount(stack.db, 'pro');
    outage = await createTestAccount(stack.db, 'pro');
  });

  afterAll(async () => {
    if (!stack) return;
    await stack.db.query('DELETE FROM accounts WHERE id = ANY($1)', [[free.accountId, other.accountId, outage.accountId]]);
    await stack.stop();
  });

  const as = (key: string) => ({
    post: (body: object) => request(api.url).post('/api/domains').set('x-api-key', key).send(body),
    list: () => request(api.url).get('/api/domains').set('x-api-key', key),
    history: (id: string, query = '') => request(api.url).get(`/api/domains/${id}/history${query}`).set('x-api-key', key),
    remove: (id: string) => request(api.url).delete(`/api/domains/${id}`).set('x-api-key', key),
  });

  it('needs a key on every route', async () => {
    await request(api.url).get('/api/domains').expect(401);
    await request(api.url).post('/api/domains').send({ domain: 'healthy.test' }).expect(401);
    await request(api.url).get('/api/domains/00000000-0000-0000-0000-000000000000/history').expect(401);
    await request(api.url).delete('/api/domains/00000000-0000-0000-0000-000000000000').expect(401);
  });

  it('adds a domain, audits it at once, lists it with its score and shows its history', async () => {
    const created = await as(free.key)
      .post({ domain: 'Healthy.Test.', dkimSelectors: ['Selector1'] })
      .expect(201);
    expect(created.body).toMatchObject({
      domain: 'healthy.test',
      dkimSelectors: ['selector1'],
      status: 'pending',
      score: null,
      lastCheckedAt: null,
      lastResult: null,
      lastDrift: null,
    });
    expect(Date.parse(created.body.createdAt)).not.toBeNaN();
    const id: string = created.body.id;

    const audited = await waitFor(
      async () => {
        const list = await as(free.key).list().expect(200);
        const entry = list.body.domains.find((domain: { id: string }) => domain.id === id);
        return entry?.status !== 'pending' ? list.body : null;
      },
      'the first audit of healthy.test',
      15_000,
    );
    expect(audited.limit).toBe(3);
    expect(audited.domains).toEqual([
      expect.objectContaining({
        id,
        domain: 'healthy.test',
        status: 'healthy',
        score: 100,
        lastResult: expect.objectContaining({ domain: 'healthy.test', score: 100, checkedAt: expect.any(String) }),
      }),
    ]);
    expect(Date.parse(audited.domains[0].lastCheckedAt)).not.toBeNaN();

    const history = await as(free.key).history(id).expect(200);
    expect(history.body.domain.id).toBe(id);
    expect(history.body.audits).toEqual([expect.objectContaining({ trigger: 'domain-added', score: 100, inconclusive: false })]);
    expect(audited.domains[0].statusReason).toBeNull();
    expect(history.body.driftEvents).toEqual([]);
    await as(free.key).history(id, '?limit=0').expect(400);
  });

  it('maps a poor score to a degraded or failing status', async () => {
    const created = await as(free.key).post({ domain: 'null-mx.test' }).expect(201);
    const entry = await waitFor(
      async () => {
        const list = await as(free.key).list().expect(200);
        const found = list.body.domains.find((domain: { id: string }) => domain.id === created.body.id);
        return found?.status !== 'pending' ? found : null;
      },
      'the first audit of null-mx.test',
      15_000,
    );
    expect(entry.score).toBeLessThan(80);
    expect(['degraded', 'failing']).toContain(entry.status);
  });

  it('keeps a domain whose DNS does not answer pending, without a score, and says why', async () => {
    const created = await as(outage.key).post({ domain: 'slow.test' }).expect(201);
    const entry = await waitFor(
      async () => {
        const list = await as(outage.key).list().expect(200);
        const found = list.body.domains.find((domain: { id: string }) => domain.id === created.body.id);
        return found?.lastCheckedAt ? found : null;
      },
      'the first audit of slow.test',
      15_000,
    );
    expect(entry).toMatchObject({ status: 'pending', score: null, lastResult: null });
    expect(entry.statusReason).toMatch(/inconclusive: no DNS lookup answered \(MX not checked: the DNS lookup timed out\); the domain stays pending/);
    const history = await as(outage.key).history(created.body.id).expect(200);
    expect(history.body.audits).toEqual([expect.objectContaining({ trigger: 'domain-added', score: null, inconclusive: true })]);
    expect(history.body.audits[0].result.score).toBeNull();
    expect(history.body.driftEvents).toEqual([]);
  });

  it('refuses a domain the account already monitors with 409 and the existing id', async () => {
    const list = await as(free.key).list().expect(200);
    const existing = list.body.domains.find((domain: { domain: string }) => domain.domain === 'healthy.test');
    const response = await as(free.key).post({ domain: 'https://healthy.test/' }).expect(409);
    expect(response.body).toMatchObject({ code: 'conflict', id: existing.id });
  });

  it('enforces the plan limit with 403', async () => {
    await as(free.key).post({ domain: 'no-bimi.test' }).expect(201);
    const response = await as(free.key).post({ domain: 'dmarc-none.test' }).expect(403);
    expect(response.body).toMatchObject({ code: 'forbidden', limit: 3 });
    expect(response.body.detail).toMatch(/up to 3 domains/);
  });

  it('refuses what is not a domain', async () => {
    expect((await as(free.key).post({ domain: '10.0.0.1' }).expect(400)).body.reason).toBe('ip_literal');
    expect((await as(free.key).post({ domain: 'intranet' }).expect(400)).body.reason).toBe('single_label');
  });

  it("hides other accounts' domains: 404 on history and delete, absent from lists", async () => {
    const mine = (await as(free.key).list().expect(200)).body.domains[0].id as string;
    expect((await as(other.key).list().expect(200)).body.domains).toEqual([]);
    expect((await as(other.key).history(mine).expect(404)).body.code).toBe('not_found');
    await as(other.key).remove(mine).expect(404);
    await as(other.key).history('not-a-uuid').expect(404);
    // Another account may monitor the same domain.
    await as(other.key).post({ domain: 'healthy.test' }).expect(201);
  });

  it('deletes a domain with its history; then it is 404', async () => {
    const list = await as(free.key).list().expect(200);
    const target = list.body.domains.find((domain: { domain: string }) => domain.domain === 'healthy.test');
    await as(free.key).remove(target.id).expect(204);
    await as(free.key).history(target.id).expect(404);
    await as(free.key).remove(target.id).expect(404);
    const audits = await stack.db.query('SELECT count(*)::int AS n FROM domain_audits WHERE monitored_domain_id = $1', [target.id]);
    expect(audits[0].n).toBe(0);
    // The freed slot can be used again.
    await as(free.key).post({ domain: 'dmarc-none.test' }).expect(201);
  });
});
