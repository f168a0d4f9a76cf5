import { Injectable } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { previewAnalyzeJob, type PreviewJobResult } from '@mailproof/contracts';
import { CLIENT_IDS } from '@mailproof/engine';
import { PreviewRepository, type PreviewEntity } from '@mailproof/persistence';
import { JobProducer, QueueEventsRegistry, awaitJob } from '@mailproof/queue';
import type { AuthenticatedAccount } from '../auth/auth.decorators';
import { orQueueUnavailable } from '../common/queue-unavailable';
import { ProblemException } from '../problems/problem.exception';
import type { PreviewRequest } from './dto/preview.request';

/** A stored preview as the API answers it: analyzed, or still queued (problems are thrown). The controller encodes it. */
export type PreviewAnswer = { status: 200; preview: PreviewEntity } | { status: 202; id: string };

const QUEUE_UNAVAILABLE = 'Previews cannot be queued right now (Redis is unavailable); nothing was stored. Retry shortly.';

/**
 * The event-driven preview: store the markup, enqueue `preview.analyze`, await the worker within
 * PREVIEW_BUDGET_MS, answer from PostgreSQL. When no worker answers in time the client gets a 503
 * carrying the preview id; the job stays queued and GET /api/preview/:id returns it later.
 * When Redis does not take the job within REDIS_COMMAND_TIMEOUT_MS the client gets a 503 without an
 * id at once and the stored preview is withdrawn, so no preview waits for a job that never came.
 */
@Injectable()
export class PreviewsService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly previews: PreviewRepository,
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
  ) {}

  async create(request: PreviewRequest, account: AuthenticatedAccount | undefined): Promise<PreviewAnswer> {
    const started = Date.now();
    const events = await orQueueUnavailable(this.queueEvents.getWithin('preview', this.config.redis.commandTimeoutMs), QUEUE_UNAVAILABLE);
    const preview = await this.previews.create({
      accountId: account?.accountId ?? null,
      // The title applies to saved (authenticated) previews only.
      title: account ? (request.title ?? null) : null,
      format: request.format ?? 'html',
      clients: request.clients ?? [...CLIENT_IDS],
      source: request.html,
      files: request.files ?? null,
      mjmlValidation: request.mjmlValidation ?? null,
      expiresAt: account ? null : new Date(started + this.config.previews.anonymousTtlHours * 3_600_000),
    });
    const job = await orQueueUnavailable(
      this.jobs.enqueue(previewAnalyzeJob(preview.id)),
      QUEUE_UNAVAILABLE,
      () => this.previews.withdraw(preview.id),
    );
    const outcome = await awaitJob<PreviewJobResult>(job, events, this.config.previews.budgetMs - (Date.now() - started));
    const stored = await this.previews.find(preview.id);
    if (!stored || stored.status === 'queued') {
      throw new ProblemException(
        503,
        'service_unavailable',
        outcome.status === 'failed'
          ? 'The preview could not be analyzed yet; it will be retried.'
          : `The preview was not analyzed within ${this.config.previews.budgetMs} ms; it stays queued. GET /api/preview/${preview.id} returns it when ready.`,
        { id: preview.id, headers: { 'Retry-After': '5' } },
      );
    }
    return this.answer(stored);
  }

  /** Anonymous previews: anyone with the id. Account previews: that account only (404 for everyone else). */
  async read(id: string, account: AuthenticatedAccount | undefined): Promise<PreviewAnswer> {
    const preview = await this.previews.find(id);
    if (!preview || (preview.accountId !== null && preview.accountId !== account?.accountId)) {
      throw new ProblemException(404, 'not_found', 'No preview with this id.');
    }
    return this.answer(preview);
  }

  answer(preview: PreviewEntity): PreviewAnswer {
    if (preview.status === 'queued') return { status: 202, id: preview.id };
    if (preview.status === 'failed') {
      const failure = preview.failure ?? { code: 'internal_error', message: 'The preview could not be analyzed.' };
      if (failure.code === 'compile_failed') {
        throw new ProblemException(422, 'compile_failed', failure.message, { id: preview.id, line: failure.line, column: failure.column });
      }
      if (failure.code === 'payload_too_large') throw new ProblemException(413, 'payload_too_large', failure.message, { id: preview.id });
      // The stored message is one of the worker's fixed sentences (never an exception's text).
      throw new ProblemException(500, 'internal_error', failure.message || 'The preview could not be analyzed.', { id: preview.id });
    }
    return { status: 200, preview };
  }

  async list(accountId: string, page: number, pageSize: number) {
    const { items, total } = await this.previews.listForAccount(accountId, page, pageSize);
    return { previews: items, page, pageSize, total };
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!(await this.previews.deleteForAccount(accountId, id))) throw new ProblemException(404, 'not_found', 'No preview with this id in your account.');
  }
}
