import type Redis from 'ioredis';
import { FailureLog } from '@mailproof/queue';
import { RedisDnsCacheAdapter } from './redis-dns-cache.adapter';

const quiet = () => new FailureLog('DNS cache (Redis)', { warn: () => undefined, log: () => undefined });

/** The few Redis commands the adapter uses, kept in a Map with their PX. */
function fakeRedis() {
  const store = new Map<string, { value: string; px: number }>();
  const redis = {
    store,
    async get(key: string) {
      return store.get(key)?.value ?? null;
    },
    async set(key: string, value: string, _px: 'PX', px: number) {
      store.set(key, { value, px });
      return 'OK';
    },
    async exists(key: string) {
      return store.has(key) ? 1 : 0;
    },
  };
  return redis;
}

describe('RedisDnsCacheAdapter', () => {
  it('keeps an answer set for its shortest TTL, compared as numbers', async () => {
    const redis = fakeRedis();
    const cache = new RedisDnsCacheAdapter(redis as unknown as Redis, 'p:', 3600, 60, quiet());
    await cache.set('txt:example.test', { answers: [{ ttl: 300 }, { ttl: 60 }, { ttl: 1200 }] });
    expect(redis.store.get('p:txt:example.test')?.px).toBe(60_000);
    const entry = await cache.get('txt:example.test');
    expect(entry).toMatchObject({ ttl: 60, answers: [{ ttl: 300 }, { ttl: 60 }, { ttl: 1200 }] });
    expect(entry?.expires).toBeGreaterThan(Date.now() + 59_000);
  });

  it('caps long TTLs, gives empty answers the negative TTL, and skips TTLs under a second', async () => {
    const redis = fakeRedis();
    const cache = new RedisDnsCacheAdapter(redis as unknown as Redis, 'p:', 600, 30, quiet());
    await cache.set('mx:long.test', { answers: [{ ttl: 86_400 }] });
    await cache.set('mx:empty.test', { answers: [] });
    await cache.set('mx:zero.test', { answers: [{ ttl: 0 }] });
    expect(redis.store.get('p:mx:long.test')?.px).toBe(600_000);
    expect(redis.store.get('p:mx:empty.test')?.px).toBe(30_000);
    expect(redis.store.has('p:mx:zero.test')).toBe(false);
  });

  it('remembers NXDOMAIN for the negative TTL', async () => {
    const redis = fakeRedis();
    const cache = new RedisDnsCacheAdapter(redis as unknown as Redis, 'p:', 600, 45, quiet());
    expect(await cache.isKnownMissing('txt:gone.test')).toBe(false);
    await cache.rememberMissing('txt:gone.test');
    expect(await cache.isKnownMissing('txt:gone.test')).toBe(true);
    expect(redis.store.get('p:nx:txt:gone.test')?.px).toBe(45_000);
  });

  it('treats an unreadable entry and a failing Redis as a miss', async () => {
    const redis = fakeRedis();
    redis.store.set('p:txt:bad.test', { value: '{not json', px: 1 });
    const cache = new RedisDnsCacheAdapter(redis as unknown as Redis, 'p:', 600, 45, quiet());
    expect(await cache.get('txt:bad.test')).toBeUndefined();
    const broken = {
      get: () => Promise.reject(new Error('down')),
      set: () => Promise.reject(new Error('down')),
      exists: () => Promise.reject(new Error('down')),
    };
    const warnings: string[] = [];
    const offline = new RedisDnsCacheAdapter(
      broken as unknown as Redis,
      'p:',
      600,
      45,
      new FailureLog('DNS cache (Redis)', { warn: (line) => warnings.push(line), log: () => undefined }),
    );
    expect(await offline.get('txt:x.test')).toBeUndefined();
    await expect(offline.set('txt:x.test', { answers: [{ ttl: 60 }] })).resolves.toBeUndefined();
    expect(await offline.isKnownMissing('txt:x.test')).toBe(false);
    // Swallowed, but not silently: the outage is logged once.
    expect(warnings).toEqual(['DNS cache (Redis) failed: down (further failures are counted, not logged, until it works again)']);
  });
});
