import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import type { RedisOptions } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { QUEUE_NAMES } from '@mailproof/contracts';
import { DEFAULT_JOB_OPTIONS } from './job-defaults';
import { JobProducer } from './job.producer';
import { QueueEventsRegistry } from './queue-events.registry';
import { bullConnection, redisOptionsFromUrl } from './redis-connection';

/** The BullMQ root (connection, prefix, job defaults) and the four queues, over the given connection. */
export function bullQueues(connection: (config: MailproofConfig) => RedisOptions) {
  return [
    BullModule.forRootAsync({
      inject: [MailproofConfig],
      useFactory: (config: MailproofConfig) => ({ connection: connection(config), prefix: config.queue.prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS }),
    }),
    BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
  ];
}

/** BullMQ wiring shared by the worker apps: connection, prefix, the four queues, producer and events. */
@Global()
@Module({
  imports: bullQueues((config) => bullConnection(config.redis, redisOptionsFromUrl(config.redis.url))),
  providers: [JobProducer, QueueEventsRegistry],
  exports: [BullModule, JobProducer, QueueEventsRegistry],
})
export class QueueModule {}
