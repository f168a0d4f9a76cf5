import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CompileError } from '@mailproof/engine/compile';
import type { ClientId } from '@mailproof/engine';
import type { PreviewGateOptions, PreviewJobResult } from '@mailproof/contracts';
import { GateRunRepository, PreviewRepository } from '@mailproof/persistence';
import { MailproofConfig } from '@mailproof/config';
import type { FinalFailureCause } from '@mailproof/queue';
import { tracer } from '@mailproof/tracing';
import { compileEmail, configureCompilers, disposeCompilers, warmCompilers } from '@mailproof/sandbox';
import { AnalysisPool } from './analysis/analysis-pool';
import { MessageAuthenticationService } from './message/message-authentication.service';
import { PreviewChecksService } from './preview-checks.service';

/**
 * Compiles and analyzes one stored preview and stores the outcome. Problems with the email
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
    private readonly config: MailproofConfig,
    private readonly gateRuns: GateRunRepository,
    private readonly authentication: MessageAuthenticationService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // One compile process per job in flight, so no template waits for another's; started and warmed
    // now rather than inside the first request's budget. Not awaited: the worker takes jobs at once,
    // and a compile that arrives first simply waits in the pool for its process.
    configureCompilers({ processes: this.config.workers.previewConcurrency, memoryLimitMb: this.config.workers.sandboxProcessMemoryMb });
    warmCompilers().catch((error: unknown) => this.logger.warn(`compile processes did not warm up: ${error instanceof Error ? error.message : String(error)}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await disposeCompilers();
  }

  /**
   * `bulk`: the gate run said the message is bulk mail (its message report's checklist then applies in full).
   * `gate`: a gate run's verdict options; an analysis that fails them goes on to the run's suggested fix.
   */
  async analyze(previewId: string, options: { bulk?: boolean; gate?: PreviewGateOptions } = {}): Promise<PreviewJobResult> {
    const preview = await this.previews.findForAnalysis(previewId);
    // Deleted meanwhile: nothing to do. Already done: a redelivery must not compute it twice.
    if (!preview) return { previewId, status: 'failed' };
    if (preview.status !== 'queued') return { previewId, status: preview.status };

    try {
      const tracing = tracer();
      const compiled = await tracing.inSpan('compile', { attributes: { 'mailproof.format': preview.format } }, () =>
        compileEmail(preview.source, preview.format, {
          files: preview.files ?? undefined,
          mjmlValidation: preview.mjmlValidation ?? undefined,
        }),
      );
      // A whole message (eml): its report is completed with the DNS-backed authentication among the checks.
      // Its lookups start now, beside the analysis; a lookup that fails is an unaudited domain (inconclusive).
      const parsed = compiled.message;
      const message = parsed
        ? {
            parsed,
            raw: preview.source,
            bulk: options.bulk === true,
            // An anonymous preview asks no DNS: audits are an account's, as POST /api/deliverability's are.
            authentication: preview.accountId
              ? this.authentication.lookups({ previewId, accountId: preview.accountId, parsed, raw: preview.source }).catch((error: unknown) => {
                  // A bug, never an outage (lookups answer those as data); it must not become an unhandled rejection.
                  this.logger.error(`preview ${previewId}: message authentication: ${error instanceof Error ? error.stack : String(error)}`);
                  return { audits: {}, dkim: [] };
                })
              : null,
          }
        : null;
      // SpamAssassin, image weights and a message's authentication run while the thread waits: bounded in
      // time, and their failures are notes (or an inconclusive authentication), never a failed preview.
      const outcome = await tracing.inSpan('analysis', { attributes: { 'mailproof.clients': preview.clients.length } }, (span) =>
        this.pool.run(
          {
            previewId,
            html: compiled.html,
            options: {
              format: preview.format,
              clients: preview.clients as ClientId[],
              compileWarnings: compiled.warnings,
              sourcePositions: compiled.sourcePositions,
            },
            includeCompiledHtml: preview.format !== 'html',
            traceparent: span.traceparent(),
            ...(options.gate ? { gate: { ...options.gate, bulk: options.bulk === true } } : {}),
          },
          (inputs) => tracing.inSpan('checks', {}, () => this.checks.complete(previewId, compiled.html, inputs, message)),
        ),
      );
      if (outcome.kind === 'limit') {
        await this.previews.storeOutcome(previewId, { failure: { code: 'payload_too_large', message: outcome.message } });
        return { previewId, status: 'failed' };
      }
      const storedResult = Buffer.from(outcome.storedResult.buffer, outcome.storedResult.byteOffset, outcome.storedResult.byteLength);
      await tracing.inSpan('store', {}, () =>
        this.previews.storeOutcome(previewId, {
          storedResult,
          overallScore: outcome.overallScore,
          gateSummary: outcome.gateSummary,
          accountId: preview.accountId,
        }),
      );
      return { previewId, status: 'completed' };
    } catch (error) {
      if (error instanceof CompileError) {
        await this.previews.storeOutcome(previewId, {
          failure: {
            code: 'compile_failed',
            message: error.message,
            ...(error.reason ? { reason: error.reason } : {}),
            line: error.line,
            column: error.column,
          },
        });
        return { previewId, status: 'failed' };
      }
      this.logger.error(`preview ${previewId}: ${error instanceof Error ? error.stack : String(error)}`);
      throw error;
    }
  }

  /**
   * The job failed for good (retries used up, or it stalled a worker twice): the preview is stored as
   * failed so the API answers with the reason instead of 202 "queued" forever. A preview that has an
   * outcome already keeps it.
   */
  async recordFinalFailure(previewId: string, cause: FinalFailureCause): Promise<void> {
    const message =
      cause === 'stalled' ? 'The analysis stopped its worker twice (crashed or froze) and was not tried again.' : 'The analysis failed on every attempt.';
    await this.previews.storeOutcome(previewId, { failure: { code: 'internal_error', message } });
    // A gate run's analysis: the steps after it are failed by BullMQ (failParentOnFailure) without ever
    // running, so nothing else would end the run; it is ended here, or it would stay running for good.
    const ended = await this.gateRuns.failForPreview(previewId, { code: 'internal_error', message });
    if (ended > 0) this.logger.warn(`preview ${previewId} failed for good (${cause}); its gate run failed with it`);
  }
}
