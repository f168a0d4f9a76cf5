import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { ENQUEUE_DEADLINE_MS, JobProducer } from './job.producer';
import { QueueEventsRegistry } from './queue-events.registry';
import { bullQueues } from './queue.module';
import { bullConnection, requestPathRedisOptions } from './redis-connection';

/**
 * QueueModule for the API: the same queues, producer and events, but the queues' connection fails
 * fast (requestPathRedisOptions) and every enqueue has a deadline (REDIS_COMMAND_TIMEOUT_MS), so a
 * request never waits on a Redis that refuses connections or stopped answering. Only for apps
 * without processors: @nestjs/bullmq gives a processor its queue's connection, and BullMQ workers
 * need a blocking connection without timeouts. QueueEvents keep their own (blocking) connections.
 */
@Global()
@Module({
  imports: bullQueues((config) => bullConnection(config.redis, requestPathRedisOptions(config.redis.url, config.redis.commandTimeoutMs))),
  providers: [
    JobProducer,
    QueueEventsRegistry,
    { provide: ENQUEUE_DEADLINE_MS, inject: [MailproofConfig], useFactory: (config: MailproofConfig) => config.redis.commandTimeoutMs },
  ],
  exports: [BullModule, JobProducer, QueueEventsRegistry],
})
export class ApiQueueModule {}
