import { Injectable, Logger } from '@nestjs/common';
import type { ClientId, FixTier } from '@mailproof/engine';
import { CompileError } from '@mailproof/engine/compile';
import type { FixJobResult } from '@mailproof/contracts';
import { FixRunRepository } from '@mailproof/persistence';
import type { FinalFailureCause } from '@mailproof/queue';
import { compileEmail } from '@mailproof/sandbox';
import { AnalysisPool } from '../analysis/analysis-pool';

/**
 * Compiles one stored fix run's email as a preview's is (the same compile processes, configured by
 * PreviewAnalysisService) and applies the fixes in a thread of the analysis pool. Problems with the email
 * (compile failures, engine limits) are outcomes, stored for the API to report; anything else is a bug
 * or an outage and is thrown so BullMQ retries the job.
 */
@Injectable()
export class FixRunService {
  private readonly logger = new Logger('FixRun');

  constructor(
    private readonly fixRuns: FixRunRepository,
    private readonly pool: AnalysisPool,
  ) {}

  async run(fixRunId: string): Promise<FixJobResult> {
    const run = await this.fixRuns.findForRun(fixRunId);
    // Expired and swept meanwhile: nothing to do. Already done: a redelivery must not compute it twice.
    if (!run) return { fixRunId, status: 'failed' };
    if (run.status !== 'queued') return { fixRunId, status: run.status };
    try {
      const compiled = await compileEmail(run.source, run.format, { files: run.files ?? undefined, mjmlValidation: run.mjmlValidation ?? undefined });
      const outcome = await this.pool.runFix({
        fixRunId,
        html: compiled.html,
        options: {
          format: run.format,
          clients: run.clients as ClientId[],
          tiers: run.tiers as FixTier[],
          compileWarnings: compiled.warnings,
          sourcePositions: compiled.sourcePositions,
          // MJML: the engine writes value fixes into the template itself where it can (patched: 'source').
          ...(run.format === 'mjml' ? { templateSource: run.source } : {}),
        },
      });
      if (outcome.kind === 'limit') {
        await this.fixRuns.storeOutcome(fixRunId, { failure: { code: 'payload_too_large', message: outcome.message } });
        return { fixRunId, status: 'failed' };
      }
      const storedResult = Buffer.from(outcome.storedResult.buffer, outcome.storedResult.byteOffset, outcome.storedResult.byteLength);
      await this.fixRuns.storeOutcome(fixRunId, { storedResult, accountId: run.accountId });
      return { fixRunId, status: 'completed' };
    } catch (error) {
      if (error instanceof CompileError) {
        const reason = error.reason ? { reason: error.reason } : {};
        await this.fixRuns.storeOutcome(fixRunId, {
          failure: { code: 'compile_failed', message: error.message, ...reason, line: error.line, column: error.column },
        });
        return { fixRunId, status: 'failed' };
      }
      this.logger.error(`fix run ${fixRunId}: ${error instanceof Error ? error.stack : String(error)}`);
      throw error;
    }
  }

  /** The job failed for good (retries used up, or it stalled a worker twice): stored, so the API answers with the reason. */
  async recordFinalFailure(fixRunId: string, cause: FinalFailureCause): Promise<void> {
    const message = cause === 'stalled' ? 'The fix stopped its worker twice (crashed or froze) and was not tried again.' : 'The fix failed on every attempt.';
    await this.fixRuns.storeOutcome(fixRunId, { failure: { code: 'internal_error', message } });
  }
}
