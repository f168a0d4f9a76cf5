import { Cluster, Redis } from 'ioredis';
import { bullConnection, createRedisClient, reconnectDelayMs, redisOptionsFromUrl, requestPathRedisOptions } from './redis-connection';

describe('redisOptionsFromUrl', () => {
  it('reads host, port, credentials, database and TLS', () => {
    expect(redisOptionsFromUrl('rediss://user:p%40ss@cache.example:6380/2')).toMatchObject({
      host: 'cache.example',
      port: 6380,
      username: 'user',
      password: 'p@ss',
      db: 2,
      tls: {},
      maxRetriesPerRequest: null,
    });
    expect(redisOptionsFromUrl('redis://127.0.0.1')).toMatchObject({ host: '127.0.0.1', port: 6379, db: 0, tls: undefined });
  });

  it('keeps blocking connections without a command timeout, as BullMQ workers need', () => {
    const options = redisOptionsFromUrl('redis://127.0.0.1:6379');
    expect(options.maxRetriesPerRequest).toBeNull();
    expect(options.commandTimeout).toBeUndefined();
    expect(options.enableOfflineQueue).toBeUndefined();
  });

  it('reconnects at most a second apart, however long Redis was away', () => {
    expect(redisOptionsFromUrl('redis://127.0.0.1').retryStrategy).toBe(reconnectDelayMs);
    expect([1, 2, 5, 10, 100, 10_000].map(reconnectDelayMs)).toEqual([200, 400, 1_000, 1_000, 1_000, 1_000]);
  });
});

describe('requestPathRedisOptions', () => {
  it('fails fast: a command timeout, no offline queue and no retry of in-flight commands', () => {
    expect(requestPathRedisOptions('redis://cache.example:6380/1', 750)).toMatchObject({
      host: 'cache.example',
      port: 6380,
      db: 1,
      commandTimeout: 750,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: reconnectDelayMs,
    });
  });
});

describe('createRedisClient and bullConnection', () => {
  const single = { url: 'redis://127.0.0.1:6379', clusterNodes: [] };
  const cluster = { url: 'redis://:secret@127.0.0.1:7000', clusterNodes: [{ host: '127.0.0.1', port: 7000 }] };

  it('makes a plain client for a single Redis and leaves BullMQ options as they are', () => {
    const options = { ...requestPathRedisOptions(single.url, 500), lazyConnect: true };
    const client = createRedisClient(single, options);
    expect(client).toBeInstanceOf(Redis);
    client.disconnect();
    expect(bullConnection(single, options)).toBe(options);
  });

  it('makes a Cluster for cluster nodes, with the per-node options and the fail-fast behavior kept', () => {
    const client = createRedisClient(cluster, { ...requestPathRedisOptions(cluster.url, 500), lazyConnect: true }) as Cluster;
    expect(client).toBeInstanceOf(Cluster);
    expect(client.options.enableOfflineQueue).toBe(false);
    expect(client.options.redisOptions).toMatchObject({ password: 'secret', commandTimeout: 500, maxRetriesPerRequest: 0 });
    expect(client.options.redisOptions).not.toHaveProperty('host');
    client.disconnect();
    expect(bullConnection(cluster, redisOptionsFromUrl(cluster.url))).toMatchObject({ mailproofClusterNodes: cluster.clusterNodes });
  });
});
