import { WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';

/**
 * Base of every processor: applies the configured concurrency (the @Processor decorator only
 * takes static options) and logs failures without crashing the worker.
 */
export abstract class ConsumerHost extends WorkerHost implements OnApplicationBootstrap {
  protected readonly logger = new Logger(this.constructor.name);

  protected constructor(private readonly concurrency: number) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.concurrency;
    this.worker.on('failed', (job, error) => this.logger.warn(`job ${job?.id} (${job?.name}) failed: ${error.message}`));
    this.worker.on('error', (error) => this.logger.error(`worker error: ${error.message}`));
  }
}
