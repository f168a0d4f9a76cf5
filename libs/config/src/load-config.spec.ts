import { ConfigValidationError } from './config.error';
import { loadConfig } from './load-config';

describe('loadConfig', () => {
  it('gives a developer machine working defaults', () => {
    const config = loadConfig({});
    expect(config.database.url).toBe('postgres://postgres@127.0.0.1:5432/mailproof');
    expect(config.redis.url).toBe('redis://127.0.0.1:6379');
    expect(config.http.port).toBe(3000);
    expect(config.http.bodyLimitBytes).toBe(2 * 1024 * 1024);
    expect(config.rateLimits.perWindow).toEqual({ anonymous: 30, free: 60, pro: 300 });
  });

  it('converts numbers and booleans from their text form', () => {
    const config = loadConfig({ PORT: '8080', MIGRATE_ON_START: 'false', WORKER_PREVIEW_CONCURRENCY: '7' });
    expect(config.http.port).toBe(8080);
    expect(config.database.migrateOnStart).toBe(false);
    expect(config.workers.previewConcurrency).toBe(7);
  });

  it('names every wrong variable and stops', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', REDIS_URL: 'http://nope', LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigValidationError);
    const names = (error as ConfigValidationError).problems.map((p) => p.variable).sort();
    expect(names).toEqual(['LOG_LEVEL', 'PORT', 'REDIS_URL']);
    expect((error as Error).message).toContain('PORT');
    expect((error as Error).message).toContain('"eighty"');
  });

  it('requires the connection settings in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', REDIS_URL: 'redis://r:6379', PUBLIC_BASE_URL: 'https://m.example' })).toThrow(
      /DATABASE_URL: is required when NODE_ENV=production/,
    );
  });

  it('refuses an API key cache longer than the 5 s revocation promise', () => {
    expect(() => loadConfig({ API_KEY_CACHE_TTL_MS: '60000' })).toThrow(/API_KEY_CACHE_TTL_MS/);
  });

  it('reads a Redis Cluster from REDIS_CLUSTER_NODES and makes the key prefix a hash tag', () => {
    const single = loadConfig({ QUEUE_PREFIX: 'mp' });
    expect(single.redis.clusterNodes).toEqual([]);
    expect(single.queue.prefix).toBe('mp');
    const cluster = loadConfig({ QUEUE_PREFIX: 'mp', REDIS_URL: 'redis://:secret@10.0.0.1:7000', REDIS_CLUSTER_NODES: '10.0.0.1:7000,[fd00::2]:7001' });
    expect(cluster.redis.clusterNodes).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'fd00::2', port: 7001 },
    ]);
    expect(cluster.queue.prefix).toBe('{mp}');
    expect(cluster.rateLimits.redis).toEqual({ url: 'redis://:secret@10.0.0.1:7000', clusterNodes: cluster.redis.clusterNodes });
    // A rate limiter of its own is a single Redis.
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000', RATE_LIMIT_REDIS_URL: 'redis://10.0.0.9:6379' }).rateLimits.redis.clusterNodes).toEqual([]);
  });

  it('refuses cluster nodes without ports, and a REDIS_URL naming another database than 0 on a cluster', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1' })).toThrow(/REDIS_CLUSTER_NODES: must be host:port pairs/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_URL: 'redis://10.0.0.1:7000/3' })).toThrow(/REDIS_URL: must name database 0/);
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_URL: 'redis://10.0.0.1:7000/0' }).redis.clusterNodes).toHaveLength(1);
  });

  it('strips a trailing slash from PUBLIC_BASE_URL and splits TRUSTED_PROXIES', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://mailproof.example.com/', TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16' });
    expect(config.http.publicBaseUrl).toBe('https://mailproof.example.com');
    expect(config.rateLimits.trustedProxies).toEqual(['10.0.0.1', '10.1.0.0/16']);
  });

  it.each([
    ['nothing set', {}, 'off'],
    ['only an OTLP endpoint (OpenTelemetry convention)', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'otlp'],
    ['an endpoint with TRACING=off', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', TRACING: 'off' }, 'off'],
    ['an endpoint with TRACING=on', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', TRACING: 'on' }, 'otlp'],
    ['TRACING=on alone', { TRACING: 'on' }, 'embedded'],
    ['TRACING empty and an endpoint', { TRACING: '', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'otlp'],
  ])('traces with %s: mode %s', (_name, env, mode) => {
    const config = loadConfig(env);
    expect(config.tracing.mode).toBe(mode);
    expect(config.tracing.otlp?.endpoint ?? null).toBe(
      mode === 'otlp' ? 'http://collector:4318' : ((env as Record<string, string>).OTEL_EXPORTER_OTLP_ENDPOINT ?? null),
    );
  });
});
