import { Injectable } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import {
  previewAnalyzeJob,
  RENDER_MODES,
  renderScreenshotsJob,
  type PreviewJobResult,
  type RenderMode,
  type RenderScreenshotsJobResult,
} from '@mailproof/contracts';
import { CLIENT_IDS, type ClientId } from '@mailproof/engine';
import { PreviewRepository, RetentionRepository, type PreviewEntity, type PreviewListOptions } from '@mailproof/persistence';
import type { Job } from 'bullmq';
import { JobProducer, QueueEventsRegistry, awaitJob, watchJob } from '@mailproof/queue';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { awaitStoredOutcome, type AwaitedOutcome, type StoredOutcome } from '../common/stored-outcome';
import { orQueueUnavailable } from '../common/queue-unavailable';
import { problemForFailure } from '../problems/problem-for-failure';
import { ProblemException } from '../problems/problem.exception';
import type { PreviewRequest, ScreenshotsRequest } from './dto/preview.request';

/** What a preview's answers name besides its result: its id. */
export type PreviewSubject = { id: string };
/** A stored preview: analyzed, still queued, or failed (compile_failed, payload_too_large, internal_error). */
export type PreviewOutcome = StoredOutcome<PreviewEntity, PreviewSubject>;

/** A saved preview's email as it was submitted: what POST /api/preview (or the dashboard form) stored. */
export interface PreviewSubmission {
  source: string;
  format: PreviewEntity['format'];
  /** Validated when the preview was submitted. */
  clients: ClientId[];
  files?: Record<string, string>;
  mjmlValidation?: 'soft' | 'strict';
}

const NOT_ANALYZED = 'The preview could not be analyzed.';

const QUEUE_UNAVAILABLE = 'Previews cannot be queued right now (Redis is unavailable); nothing was stored. Retry shortly.';
const RENDER_UNAVAILABLE = 'Screenshots cannot be queued right now (Redis is unavailable). Retry shortly.';

/** `POST /api/preview/:id/screenshots`: what is stored now and how this request's rendering went. */
export interface ScreenshotsAnswer {
  /** Every screenshot of the preview ("<clientId>-light|dark" to PNG URL), this request's and earlier ones. */
  screenshots: Record<string, string>;
  /** complete: every requested screenshot exists; partial: rendering ended with some failed; pending: still rendering. */
  screenshotStatus: 'complete' | 'partial' | 'pending';
  captured: string[];
  failed: Array<{ id: string; reason: string }>;
}

/**
 * The event-driven preview: store the markup, enqueue `preview.analyze`, await the worker within
 * PREVIEW_BUDGET_MS, answer from PostgreSQL with the preview's outcome. A preview no worker analyzed in
 * time is pending (the API answers 503 with its id); the job stays queued and GET /api/preview/:id
 * returns it later. When Redis does not take the job within REDIS_COMMAND_TIMEOUT_MS the client gets a
 * 503 without an id at once and the stored preview is withdrawn, so no preview waits for a job that never came.
 */
@Injectable()
export class PreviewsService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly previews: PreviewRepository,
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
    private readonly retention: RetentionRepository,
  ) {}

  /**
   * retain: false (or an account keeping 0 days) removes the email as soon as its chain is done (the answer already holds the
   * result); a chain still running when the request ends (pending, or screenshots not painted yet) leaves it to the next retention sweep.
   */
  async create(request: PreviewRequest, account: AuthenticatedAccount | undefined): Promise<AwaitedOutcome<PreviewEntity, PreviewSubject>> {
    const { outcome, retain } = await this.analyze(request, account);
    const renderPending = outcome.state === 'done' && request.screenshots === true && !outcome.value.screenshots;
    if (!retain && outcome.state !== 'pending' && !renderPending) {
      await this.retention.purgePreviews([outcome.state === 'done' ? outcome.value.id : outcome.subject.id]);
    }
    return outcome;
  }

  private async analyze(
    request: PreviewRequest,
    account: AuthenticatedAccount | undefined,
  ): Promise<{ outcome: AwaitedOutcome<PreviewEntity, PreviewSubject>; retain: boolean }> {
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
      retain: request.retain !== false,
    });
    // With screenshots, rendering is the chain's second step: it starts when the analysis is stored.
    const renderEvents = request.screenshots
      ? await orQueueUnavailable(this.queueEvents.getWithin('render', this.config.redis.commandTimeoutMs), QUEUE_UNAVAILABLE)
      : null;
    // The analysis is watched before it is added (its id is new): no round trip to ask whether it finished already.
    const analysisJob = previewAnalyzeJob(preview.id);
    const analysis = watchJob<PreviewJobResult>(events, analysisJob.jobId, this.config.previews.budgetMs - (Date.now() - started));
    let renderJob: Job | undefined;
    try {
      const jobs: Job[] = await orQueueUnavailable<Job[]>(
        request.screenshots
          ? this.jobs.enqueueChainSteps([analysisJob, renderScreenshotsJob(preview.id, null, RENDER_MODES)])
          : this.jobs.enqueue(analysisJob).then((job) => [job]),
        QUEUE_UNAVAILABLE,
        () => this.previews.withdraw(preview.id),
      );
      renderJob = jobs[1];
    } catch (error) {
      analysis.cancel();
      throw error;
    }
    const { retain } = preview;
    const outcome = await awaitStoredOutcome({
      job: analysis.outcome,
      budgetMs: this.config.previews.budgetMs,
      reread: () => this.previews.find(preview.id),
      outcomeOf: previewOutcome,
      subject: { id: preview.id },
    });
    if (outcome.state !== 'done' || !renderJob || !renderEvents) return { outcome, retain };
    // Screenshots are present when rendering finished within the wait; otherwise absent, stored when done.
    const rendered = await awaitJob(renderJob, this.jobs.queue('render'), renderEvents, this.config.render.waitMs);
    if (rendered.status !== 'completed') return { outcome, retain };
    // An analyzed preview stays analyzed: the one read again only adds the screenshots.
    const withScreenshots = await this.previews.find(preview.id);
    return { outcome: withScreenshots ? { state: 'done', value: withScreenshots } : outcome, retain };
  }

  /** Anonymous previews: anyone with the id. Account previews: that account only (null for everyone else, as for an unknown id). */
  async read(id: string, account: AuthenticatedAccount | undefined): Promise<PreviewOutcome | null> {
    const preview = await this.previews.find(id);
    if (!preview || (preview.accountId !== null && preview.accountId !== account?.accountId)) return null;
    return previewOutcome(preview);
  }

  /** One of the account's saved previews (never an anonymous one), or null. */
  async findOwned(id: string, account: AuthenticatedAccount): Promise<PreviewEntity | null> {
    const preview = await this.previews.find(id);
    return preview && preview.accountId === account.accountId ? preview : null;
  }

  /**
   * The email of one of the account's saved previews as it was submitted (source, files and the options it
   * was compiled with), for the dashboard's Fix action to send to FixService; null as for `findOwned`.
   */
  async findOwnedSubmission(id: string, account: AuthenticatedAccount): Promise<PreviewSubmission | null> {
    const owned = await this.findOwned(id, account);
    // A preview past its retention has no email left to submit (docs/privacy.md).
    if (!owned || (owned.status === 'completed' && owned.result === null)) return null;
    const stored = await this.previews.findForAnalysis(id);
    if (!stored) return null;
    return {
      source: stored.source,
      format: stored.format,
      clients: stored.clients as ClientId[],
      files: stored.files ?? undefined,
      mjmlValidation: stored.mjmlValidation ?? undefined,
    };
  }

  /**
   * Renders screenshots of a stored preview (anonymous: anyone with the id; account previews: that account)
   * and waits up to PREVIEW_RENDER_WAIT_MS. Screenshots that exist already are not rendered again.
   */
  async captureScreenshots(id: string, request: ScreenshotsRequest, account: AuthenticatedAccount | undefined): Promise<ScreenshotsAnswer> {
    const preview = await this.previews.find(id);
    if (!preview || (preview.accountId !== null && preview.accountId !== account?.accountId)) {
      throw new ProblemException('not_found', 'No preview with this id.');
    }
    if (preview.status === 'queued') {
      throw new ProblemException('service_unavailable', 'The preview is still being analyzed; ask for screenshots once it is done.', {
        id,
        headers: { 'Retry-After': '2' },
      });
    }
    const analysis = previewOutcome(preview);
    if (analysis.state === 'failed') throw problemForFailure(analysis.failure, analysis.subject);
    if (preview.result === null)
      throw new ProblemException('content_gone', "This preview's content was removed (its account's retention, or retain: false); its score remains.", {
        id,
        contentRemoved: true,
      });
    const notAnalyzed = (request.clients ?? []).filter((client) => !preview.clients.includes(client));
    if (notAnalyzed.length > 0) {
      throw new ProblemException('validation_failed', 'The request is invalid; see errors.', {
        errors: [{ field: 'clients', message: `not analyzed in this preview: ${notAnalyzed.join(', ')} (it has ${preview.clients.join(', ')})` }],
      });
    }
    const modes: RenderMode[] = RENDER_MODES.filter((mode) => (request.modes ?? RENDER_MODES).includes(mode));
    const clients = request.clients ?? preview.clients;
    const requested = clients.flatMap((client) => modes.map((mode) => `${client}-${mode}`));
    const existing = preview.screenshots ?? {};
    if (requested.every((shot) => existing[shot])) return { screenshots: existing, screenshotStatus: 'complete', captured: requested, failed: [] };

    const events = await orQueueUnavailable(this.queueEvents.getWithin('render', this.config.redis.commandTimeoutMs), RENDER_UNAVAILABLE);
    const job = await orQueueUnavailable(this.jobs.enqueue(renderScreenshotsJob(id, request.clients ?? null, modes)), RENDER_UNAVAILABLE);
    const outcome = await awaitJob<RenderScreenshotsJobResult>(job, this.jobs.queue('render'), events, this.config.render.waitMs);
    const screenshots = (await this.previews.find(id))?.screenshots ?? existing;
    const captured = requested.filter((shot) => screenshots[shot]);
    const failed =
      outcome.status === 'completed'
        ? outcome.result.failed.filter((failure) => requested.includes(failure.id))
        : outcome.status === 'failed'
          ? requested.filter((shot) => !screenshots[shot]).map((shot) => ({ id: shot, reason: 'rendering failed; ask again to retry' }))
          : [];
    const screenshotStatus = captured.length === requested.length ? 'complete' : outcome.status === 'timeout' ? 'pending' : 'partial';
    return { screenshots, screenshotStatus, captured, failed };
  }

  async list(accountId: string, page: number, pageSize: number, options: PreviewListOptions = {}) {
    const { items, total } = await this.previews.listForAccount(accountId, page, pageSize, options);
    return { previews: items, page, pageSize, total };
  }

  async delete(accountId: string, id: string): Promise<void> {
    if (!(await this.previews.deleteForAccount(accountId, id))) throw new ProblemException('not_found', 'No preview with this id in your account.');
  }
}

/**
 * What a stored preview says: analyzed, queued, or failed. A preview fails only as its analysis does
 * (compile_failed, payload_too_large); any other stored code (a gate run's URL that could not be
 * imported fails its preview too) is an internal_error for the preview, with the stored sentence.
 */
export function previewOutcome(preview: PreviewEntity): PreviewOutcome {
  const subject = { id: preview.id };
  if (preview.status === 'queued') return { state: 'pending', subject };
  if (preview.status === 'completed') return { state: 'done', value: preview };
  const failure = preview.failure ?? { code: 'internal_error', message: NOT_ANALYZED };
  if (failure.code === 'compile_failed' || failure.code === 'payload_too_large') return { state: 'failed', subject, failure };
  return { state: 'failed', subject, failure: { code: 'internal_error', message: failure.message || NOT_ANALYZED } };
}
