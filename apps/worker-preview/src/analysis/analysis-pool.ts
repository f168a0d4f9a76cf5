import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import Piscina from 'piscina';
import { MailproofConfig } from '@mailproof/config';
import { tracer } from '@mailproof/tracing';
import type { GateSuggestedFix } from '@mailproof/engine';
import analyzeInline, {
  fix as fixInline,
  suggestFix as suggestFixInline,
  type AnalysisOutcome,
  type AnalysisTask,
  type ChecksReply,
  type CompleteChecks,
  type FixOutcome,
  type FixTask,
  type SuggestFixTask,
} from './analysis.thread';
import { ANALYSIS_THREAD_LIMITS } from './analysis-thread-limits';

/**
 * Runs the engine in worker threads (piscina), one per unit of preview concurrency: a preview's
 * analysis (the thread file's default export), a fix run's fixes (its `fix`) or a failed gate verdict's
 * suggested fix (its `suggestFix`). Analysis is the CPU-heavy part of a preview; on the worker's main
 * event loop it would delay BullMQ's lock renewals and the other active job, and it could use only one
 * core. The thread also serializes and compresses the result; the network checks it needs in between
 * run here, on the main thread.
 * Under ts-jest (no compiled thread file) it runs inline, with the same function.
 */
@Injectable()
export class AnalysisPool implements OnApplicationShutdown {
  private readonly pool: Piscina | null;

  constructor(config: MailproofConfig) {
    const threadFile = join(__dirname, 'analysis.thread.js');
    this.pool =
      config.workers.previewThreads && existsSync(threadFile)
        ? new Piscina({
            filename: threadFile,
            minThreads: 1,
            maxThreads: config.workers.previewConcurrency,
            idleTimeout: 60_000,
            resourceLimits: { ...ANALYSIS_THREAD_LIMITS },
          })
        : null;
  }

  async run(task: Omit<AnalysisTask, 'checksPort'>, completeChecks: CompleteChecks): Promise<AnalysisOutcome> {
    const outcome = await this.runAnalysis(task, completeChecks);
    // The thread's measured steps become spans under the analysis span it was given.
    if (task.traceparent && outcome.kind === 'analysis' && outcome.phases) tracer().record(task.traceparent, outcome.phases);
    return outcome;
  }

  private async runAnalysis(task: Omit<AnalysisTask, 'checksPort'>, completeChecks: CompleteChecks): Promise<AnalysisOutcome> {
    if (!this.pool) return analyzeInline(task, completeChecks);
    const { port1: checksPort, port2: threadPort } = new MessageChannel();
    checksPort.once('message', (inputs: Parameters<CompleteChecks>[0]) => {
      completeChecks(inputs).then(
        (reports) => checksPort.postMessage({ reports } satisfies ChecksReply),
        (error: unknown) => checksPort.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ChecksReply),
      );
    });
    try {
      return (await this.pool.run({ ...task, checksPort: threadPort }, { transferList: [threadPort] })) as AnalysisOutcome;
    } finally {
      checksPort.close();
    }
  }

  /** A fix run's fixes (`fix` of the thread file): the same threads, so fixes and analyses share the cores and the concurrency. */
  async runFix(task: FixTask): Promise<FixOutcome> {
    if (!this.pool) return fixInline(task);
    return (await this.pool.run(task, { name: 'fix' })) as FixOutcome;
  }

  /** A failed gate verdict's suggested fix (`suggestFix` of the thread file): the fixes run in the same threads as analyses. */
  async suggestFix(task: SuggestFixTask): Promise<GateSuggestedFix | null> {
    if (!this.pool) return suggestFixInline(task);
    return (await this.pool.run(task, { name: 'suggestFix' })) as GateSuggestedFix | null;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }
}
