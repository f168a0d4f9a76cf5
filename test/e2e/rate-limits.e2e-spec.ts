import type { DataSource } from 'typeorm';
import request from 'supertest';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { sleep } from '../utils/wait';

describe('per-minute rate limits shared through Redis', () => {
  const LIMIT = 5;
  const config = testConfig({ RATE_LIMIT_WINDOW_SECONDS: 3, RATE_LIMIT_FREE: LIMIT, RATE_LIMIT_ANONYMOUS: LIMIT });
  const queues = openQueues(config);
  let first: RunningApi;
  let second: RunningApi;
  let db: DataSource;

  beforeAll(async () => {
    db = await openDatabase(config);
    first = await startTestApi(config);
    second = await startTestApi(config);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await queues.closeAll();
    await db.destroy();
  });

  it('lets exactly N requests through across two instances, then 429 with Retry-After, then recovers', async () => {
    const account = await createTestAccount(db, 'free');
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const api = i % 2 === 0 ? first : second;
      const response = await request(api.url).get('/api/keys').set('x-api-key', account.key);
      statuses.push(response.status);
      expect(response.headers['ratelimit-limit']).toBe(String(LIMIT));
      expect(response.headers['ratelimit-remaining']).toBe(String(LIMIT - i - 1));
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(0);
    }
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    const limited = await request(second.url).get('/api/keys').set('x-api-key', account.key);
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body.code).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await sleep(retryAfter * 1000 + 100);
    await request(first.url).get('/api/keys').set('x-api-key', account.key).expect(200);
  });

  it('limits anonymous callers per IP, separately from accounts', async () => {
    const account = await createTestAccount(db, 'free');
    for (let i = 0; i < LIMIT; i++) await request(first.url).get('/api/nothing').expect(404);
    await request(second.url).get('/api/nothing').expect(429);
    await request(second.url).get('/api/keys').set('x-api-key', account.key).expect(200);
  });

  it('never limits health and metrics', async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      const live = await request(first.url).get('/health/live').expect(200);
      expect(live.headers['ratelimit-limit']).toBeUndefined();
      const metrics = await request(first.url).get('/metrics').expect(200);
      expect(metrics.headers['ratelimit-limit']).toBeUndefined();
    }
  });

  it('falls back to a per-instance limit when its Redis is unreachable, instead of failing or dropping limits', async () => {
    const unreachable = testConfig({
      RATE_LIMIT_WINDOW_SECONDS: 3,
      RATE_LIMIT_FREE: LIMIT,
      RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:1',
    });
    const api = await startTestApi(unreachable);
    try {
      const account = await createTestAccount(db, 'free');
      for (let i = 0; i < LIMIT; i++) await request(api.url).get('/api/keys').set('x-api-key', account.key).expect(200);
      const limited = await request(api.url).get('/api/keys').set('x-api-key', account.key).expect(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await api.close();
    }
  });
});
