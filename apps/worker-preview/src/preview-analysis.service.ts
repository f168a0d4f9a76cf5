import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CompileError } from '@mailproof/engine/compile';
import type { ClientId } from '@mailproof/engine';
import type { PreviewJobResult } from '@mailproof/contracts';
import { PreviewRepository } from '@mailproof/persistence';
import { compileEmail, disposeCompilers, warmCompilers } from '@mailproof/sandbox';
import { AnalysisPool } from './analysis/analysis-pool';
import { PreviewChecksService } from './preview-checks.service';

/**
 * Compiles and analyses one stored preview and stores the outcome. Problems with the email
 * (compile failures, engine limits) are outcomes, stored for the API to report; anything else is
 * a bug or an outage and is thrown so BullMQ retries the job.
 */
@Injectable()
export class PreviewAnalysisService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PreviewAnalysis');

  constructor(
    private readonly previews: PreviewRepository,
    private readonly checks: PreviewChecksService,
    private readonly pool: AnalysisPool,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Build the sandbox snapshots once now rather than inside the first request's budget.
    await warmCompilers();
  }

  async onApplicationShutdown(): Promise<void> {
    await disposeCompilers();
  }

  async analyse(previewId: string): Promise<PreviewJobResult> {
    const preview = await this.previews.findForAnalysis(previewId);
    // Deleted meanwhile: nothing to do. Already done: a redelivery must not compute it twice.
    if (!preview) return { previewId, status: 'failed' };
    if (preview.status !== 'queued') return { previewId, status: preview.status };

    try {
      const compiled = await compileEmail(preview.source, preview.format);
      const outcome = await this.pool.run({
        html: compiled.html,
        options: { format: preview.format, clients: preview.clients as ClientId[], compileWarnings: compiled.warnings },
      });
      if (outcome.kind === 'limit') {
        await this.previews.storeOutcome(previewId, { failure: { code: 'payload_too_large', message: outcome.message } });
        return { previewId, status: 'failed' };
      }
      // SpamAssassin and image weights: bounded in time, and their failures are notes, never a failed preview.
      const checked = await this.checks.complete(previewId, compiled.html, outcome.checkInputs);
      // For compiled formats the compiled HTML is part of the result (as the peer API gives it).
      const appended = preview.format === 'html' ? checked : { ...checked, compiledHtml: compiled.html };
      const resultJson = `${outcome.otherFieldsJson.slice(0, -1)},${JSON.stringify(appended).slice(1)}`;
      await this.previews.storeOutcome(previewId, { resultJson, overallScore: outcome.overallScore });
      return { previewId, status: 'completed' };
    } catch (error) {
      if (error instanceof CompileError) {
        await this.previews.storeOutcome(previewId, {
          failure: { code: 'compile_failed', message: error.message, line: error.line, column: error.column },
        });
        return { previewId, status: 'failed' };
      }
      this.logger.error(`preview ${previewId}: ${error instanceof Error ? error.stack : String(error)}`);
      throw error;
    }
  }
}
