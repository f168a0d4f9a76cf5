import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
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
  type SuggestedFixAhead,
  type SuggestFixTask,
  type ThreadMessage,
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
 *
 * A gate's analysis that already fails its verdict goes on to the run's suggested fix in its thread after
 * handing its outcome over (analysis.thread.ts): `run` answers with the outcome at once, and the suggestion
 * is held here, by preview, for the run's follow-up job (`takeSuggestedFix`) when it runs in this process.
 */
@Injectable()
export class AnalysisPool implements OnApplicationShutdown {
  private readonly logger = new Logger('AnalysisPool');
  private readonly pool: Piscina | null;
  private readonly held = new HeldSuggestions();

  constructor(config: MailproofConfig) {
    const threadFile = join(__dirname, 'analysis.thread.js');
    this.pool =
      config.workers.previewThreads && existsSync(threadFile) ? new Piscina(analysisPoolOptions(threadFile, config.workers.previewConcurrency)) : null;
  }

  async run(task: Omit<AnalysisTask, 'checksPort'>, completeChecks: CompleteChecks): Promise<AnalysisOutcome> {
    const outcome = await this.runAnalysis(task, completeChecks);
    // The thread's measured steps become spans under the analysis span it was given.
    if (task.traceparent && outcome.kind === 'analysis' && outcome.phases) tracer().record(task.traceparent, outcome.phases);
    return outcome;
  }

  private runAnalysis(task: Omit<AnalysisTask, 'checksPort'>, completeChecks: CompleteChecks): Promise<AnalysisOutcome> {
    return new Promise<AnalysisOutcome>((resolve, reject) => {
      let answered = false;
      let settleHeld!: (suggestion: HeldSuggestion) => void;
      const held = new Promise<HeldSuggestion>((settle) => (settleHeld = settle));
      // The outcome handed over before the task goes on to the suggested fix: held first, so that the verdict,
      // which runs only once this outcome is stored, finds the suggestion on its way.
      const onOutcome = (outcome: AnalysisOutcome) => {
        if (answered) return;
        answered = true;
        this.held.hold(task.previewId, held);
        resolve(outcome);
      };
      const ended = this.pool ? this.runThreaded(task, completeChecks, onOutcome) : analyzeInline(task, completeChecks, onOutcome);
      ended.then(
        (end) => {
          if (end.kind === 'suggested-fix') return settleHeld({ suggestedFix: end.suggestedFix });
          settleHeld(null);
          if (!answered) {
            answered = true;
            resolve(end);
          }
        },
        (error: unknown) => {
          settleHeld(null);
          if (!answered) {
            answered = true;
            reject(error);
          } else
            this.logger.warn(
              `preview ${task.previewId}: the suggested fix after the analysis failed (${error instanceof Error ? error.message : String(error)}); the follow-up computes it`,
            );
        },
      );
    });
  }

  private async runThreaded(
    task: Omit<AnalysisTask, 'checksPort'>,
    completeChecks: CompleteChecks,
    onOutcome: (outcome: AnalysisOutcome) => void,
  ): Promise<AnalysisOutcome | SuggestedFixAhead> {
    const { port1: port, port2: threadPort } = new MessageChannel();
    port.on('message', (message: ThreadMessage) => {
      if (message.kind === 'outcome') return onOutcome(message.outcome);
      completeChecks(message.inputs).then(
        (reports) => port.postMessage({ reports } satisfies ChecksReply),
        (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ChecksReply),
      );
    });
    try {
      return (await this.pool!.run({ ...task, checksPort: threadPort }, { transferList: [threadPort] })) as AnalysisOutcome | SuggestedFixAhead;
    } finally {
      port.close();
    }
  }

  /**
   * The suggested fix a gate's analysis computed in this process for the preview, taken once (undefined when there
   * is none: the analysis did not go on, it ran in another process, or it was taken or dropped already). It resolves
   * to null when the computation failed: the caller then computes it as for a run whose analysis ran elsewhere.
   */
  takeSuggestedFix(previewId: string): Promise<HeldSuggestion> | undefined {
    return this.held.take(previewId);
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
    this.held.clear();
    await this.pool?.destroy();
  }
}

/**
 * The pool's threads: one per unit of preview concurrency, all started with the worker and **kept for its life**
 * (docs/gate.md, "The analysis threads stay"). A thread piscina ended after a minute idle (its default policy, and
 * this pool's before) came back cold: measured on the median corpus email, its first analysis cost ~0.75 s of CPU
 * (the thread's start and the engine's first run), and V8 kept optimizing for the next ~300 analyses, ~5 s of
 * CPU in all, which the next CI burst paid, often inside a gate's 4 s budget. Kept, an idle thread holds ~100 MB
 * of resident memory that the worker must have anyway for the moments all its threads are busy.
 */
export function analysisPoolOptions(filename: string, concurrency: number) {
  return {
    filename,
    minThreads: concurrency,
    maxThreads: concurrency,
    // Only threads above minThreads end when idle: none here.
    idleTimeout: 60_000,
    resourceLimits: { ...ANALYSIS_THREAD_LIMITS },
  };
}

/** A held suggestion: computed (the suggestion, or null when the safe fixes resolve nothing), or null when it failed. */
export type HeldSuggestion = { suggestedFix: GateSuggestedFix | null } | null;

/**
 * How long a held suggestion waits for its run's follow-up. The follow-up is added once the verdict is stored, a few
 * jobs later; one that never comes here (the verdict passed after all, the follow-up ran in another process) must not
 * keep its entry. Past this the follow-up computes the suggestion itself, as without the hand-over.
 */
export const HELD_SUGGESTION_MS = 5 * 60_000;
/** At most this many held at once (a backlog of verdicts); the oldest goes first. */
export const HELD_SUGGESTIONS_MAX = 1_000;

class HeldSuggestions {
  private readonly entries = new Map<string, { suggestion: Promise<HeldSuggestion>; timer: NodeJS.Timeout }>();

  hold(previewId: string, suggestion: Promise<HeldSuggestion>): void {
    this.drop(previewId);
    if (this.entries.size >= HELD_SUGGESTIONS_MAX) this.drop(this.entries.keys().next().value as string);
    const timer = setTimeout(() => this.entries.delete(previewId), HELD_SUGGESTION_MS);
    timer.unref();
    this.entries.set(previewId, { suggestion, timer });
  }

  take(previewId: string): Promise<HeldSuggestion> | undefined {
    const entry = this.entries.get(previewId);
    if (entry) this.drop(previewId);
    return entry?.suggestion;
  }

  clear(): void {
    for (const previewId of [...this.entries.keys()]) this.drop(previewId);
  }

  private drop(previewId: string): void {
    const entry = this.entries.get(previewId);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(previewId);
  }
}
