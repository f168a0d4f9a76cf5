import type { RedisOptions } from 'bullmq';

/**
 * How long ioredis waits before its next reconnection attempt: 200 ms, 400 ms, ... never more than
 * a second. BullMQ's own default grows to 20 s, so after a long Redis outage workers and the API
 * would keep waiting up to 20 s after Redis is back; with this they follow within about a second.
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 200, 1_000);
}

/**
 * ioredis options from a redis:// or rediss:// URL, for BullMQ workers, QueueEvents and anything
 * that may block: BullMQ needs maxRetriesPerRequest: null on blocking connections, and commands wait
 * for a reconnect (offline queue) instead of failing. Nothing a request waits on uses these as they
 * are: see requestPathRedisOptions.
 */
export function redisOptionsFromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: db ? Number(db) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
    connectTimeout: 5_000,
    retryStrategy: reconnectDelayMs,
  };
}

/**
 * Options for a connection that requests wait on (the API's queue producers, the rate limiter, the
 * DNS cache): never blocking, and failing fast instead of waiting for Redis.
 * - enableOfflineQueue: false: while Redis refuses connections a command fails at once instead of
 *   queueing until the reconnect (and running later, after the request has given up).
 * - commandTimeout: a Redis that accepts connections but does not answer (frozen, overloaded, a
 *   network black hole) never fails a command by itself; the timeout does.
 * - maxRetriesPerRequest: 0: commands in flight when the connection drops fail instead of being retried.
 */
export function requestPathRedisOptions(url: string, commandTimeoutMs: number): RedisOptions {
  return { ...redisOptionsFromUrl(url), enableOfflineQueue: false, commandTimeout: commandTimeoutMs, maxRetriesPerRequest: 0 };
}
