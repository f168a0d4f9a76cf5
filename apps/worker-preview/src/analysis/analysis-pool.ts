import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Piscina from 'piscina';
import { MailproofConfig } from '@mailproof/config';
import analyseInline, { type AnalysisOutcome, type AnalysisTask } from './analysis.thread';

/** Heap per analysis thread: an email at the engine's limits needs far less; a runaway one stops here. */
const THREAD_HEAP_MB = 512;

/**
 * Runs the engine in worker threads (piscina), one per unit of preview concurrency. Analysis is
 * the CPU-heavy part of a preview; on the worker's main event loop it would delay BullMQ's lock
 * renewals and the other active job, and it could use only one core.
 * Under ts-jest (no compiled thread file) it runs inline, with the same function.
 */
@Injectable()
export class AnalysisPool implements OnApplicationShutdown {
  private readonly pool: Piscina | null;

  constructor(config: MailproofConfig) {
    const threadFile = join(__dirname, 'analysis.thread.js');
    this.pool = config.workers.previewThreads && existsSync(threadFile)
      ? new Piscina({
          filename: threadFile,
          minThreads: 1,
          maxThreads: config.workers.previewConcurrency,
          idleTimeout: 60_000,
          resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
        })
      : null;
  }

  get threaded(): boolean {
    return this.pool !== null;
  }

  run(task: AnalysisTask): Promise<AnalysisOutcome> {
    return this.pool ? (this.pool.run(task) as Promise<AnalysisOutcome>) : Promise.resolve(analyseInline(task));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }
}
