import { createIORedisClient, RedisConnection, type RedisOptions } from 'bullmq';
import { Cluster, type ClusterOptions, Redis } from 'ioredis';
import type { RedisTarget } from '@mailproof/config';

/** A client of the configured Redis: one server, or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

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

/**
 * The one place Redis clients are made (docs/operations.md, "Redis Cluster"): a plain ioredis client
 * for a single Redis, an ioredis Cluster over the seed nodes otherwise. `options` are the single-server
 * options (redisOptionsFromUrl / requestPathRedisOptions); for a Cluster they apply to each node, and
 * the Cluster itself gets the same offline-queue and reconnect behavior.
 */
export function createRedisClient(target: RedisTarget, options: RedisOptions): RedisClient {
  return target.clusterNodes.length > 0 ? new Cluster(target.clusterNodes, clusterOptions(options)) : new Redis(options);
}

function clusterOptions(options: RedisOptions): ClusterOptions {
  // host, port and db name a single server: the nodes come from the cluster, and a cluster has only db 0.
  const { host: _host, port: _port, db: _db, lazyConnect, enableOfflineQueue, retryStrategy: _retry, [CLUSTER_NODES]: _nodes, ...perNode } = options;
  return {
    redisOptions: perNode,
    enableOfflineQueue: enableOfflineQueue ?? true,
    lazyConnect,
    clusterRetryStrategy: reconnectDelayMs,
    // A node that fails over or moves slots answers MOVED/CLUSTERDOWN for a moment: retry soon, not after the default 100 ms x many.
    retryDelayOnClusterDown: 200,
    retryDelayOnFailover: 200,
  };
}

/** The key under which BullMQ connection options carry a cluster's seed nodes to the client factory below. */
const CLUSTER_NODES = 'mailproofClusterNodes';

/**
 * BullMQ connection options (Queue, Worker, QueueEvents, FlowProducer) for a target. They stay plain
 * options so BullMQ opens, duplicates and closes its connections itself; for a Redis Cluster they carry
 * the seed nodes, and BullMQ's client factory (set below) builds an ioredis Cluster from them.
 */
export function bullConnection(target: RedisTarget, options: RedisOptions): RedisOptions {
  return target.clusterNodes.length > 0 ? { ...options, [CLUSTER_NODES]: target.clusterNodes } : options;
}

/**
 * BullMQ calls this for every connection it opens from options. Without cluster nodes it builds what
 * BullMQ builds by default (an ioredis client from the options), so single-Redis behavior is unchanged.
 */
RedisConnection.clientFactory = (options: RedisOptions) => {
  const nodes = options[CLUSTER_NODES] as RedisTarget['clusterNodes'] | undefined;
  const { [CLUSTER_NODES]: _nodes, url: _url, ...rest } = options;
  return createIORedisClient(nodes ? new Cluster(nodes, clusterOptions(rest)) : new Redis(rest));
};
