import type { Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './redis-connection';

/**
 * The ioredis client under a BullMQ queue, for the commands BullMQ's own client interface (IRedisClient) does not
 * list: publish, smembers, xrange/xdel, a Cluster's nodes. BullMQ 6 hands out the ioredis instance it made (or was
 * given) behind a Proxy that keeps its prototype; this is the one place that relies on that, and it checks instead of
 * casting: an upgrade that hands out something else fails here, named, and in queue-redis-client.int-spec.ts.
 */
export async function queueRedisClient(queue: Pick<Queue, 'name' | 'getBackend'>): Promise<RedisClient> {
  const client: unknown = await queue.getBackend().client;
  if (client instanceof Redis || client instanceof Cluster) return client;
  throw new Error(`BullMQ no longer hands out an ioredis client for queue ${queue.name}: libs/queue/src/queue-redis-client.ts needs another way to reach it`);
}
