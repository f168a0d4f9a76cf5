import { WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';

export interface ConsumerSettings {
  concurrency: number;
  /** How long a job's lock lasts without renewal; a crashed worker's jobs return after about this long. */
  lockDurationMs: number;
  /** How often workers look for jobs whose lock expired (stalled) and put them back. */
  stalledIntervalMs: number;
}

/**
 * Base of every processor. The @Processor decorator only takes static options, so processors are
 * declared with `{ autorun: false }` and this class applies the configured concurrency and lock
 * settings before it starts the worker. It also logs failures without crashing the worker.
 */
export abstract class ConsumerHost extends WorkerHost implements OnApplicationBootstrap {
  protected readonly logger = new Logger(this.constructor.name);

  protected constructor(private readonly settings: ConsumerSettings) {
    super();
  }

  onApplicationBootstrap(): void {
    const worker = this.worker;
    worker.concurrency = this.settings.concurrency;
    Object.assign(worker.opts, { lockDuration: this.settings.lockDurationMs, stalledInterval: this.settings.stalledIntervalMs });
    worker.on('failed', (job, error) => this.logger.warn(`job ${job?.id} (${job?.name}) failed: ${error.message}`));
    worker.on('error', (error) => this.logger.error(`worker error: ${error.message}`));
    // run() resolves only when the worker closes; errors surface through the 'error' event.
    void worker.run().catch((error: unknown) => this.logger.error(`worker stopped: ${String(error)}`));
  }
}
