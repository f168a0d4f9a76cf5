import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { QUEUE_NAMES } from '@mailproof/contracts';
import { DEFAULT_JOB_OPTIONS } from './job-defaults';
import { JobProducer } from './job.producer';
import { QueueEventsRegistry } from './queue-events.registry';
import { redisOptionsFromUrl } from './redis-connection';

/** BullMQ wiring shared by every app: connection, prefix, the four queues, producer and events. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [MailproofConfig],
      useFactory: (config: MailproofConfig) => ({
        connection: redisOptionsFromUrl(config.redis.url),
        prefix: config.queue.prefix,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      }),
    }),
    BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
  ],
  providers: [JobProducer, QueueEventsRegistry],
  exports: [BullModule, JobProducer, QueueEventsRegistry],
})
export class QueueModule {}
