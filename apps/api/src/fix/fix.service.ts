import { Injectable } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { fixRunJob, type FixJobResult, type FixRunResult } from '@mailproof/contracts';
import { CLIENT_IDS, type FixTier } from '@mailproof/engine';
import { decodePreviewResult, FixRunRepository, RetentionRepository, type StoredFixRun } from '@mailproof/persistence';
import { JobProducer, QueueEventsRegistry, watchJob } from '@mailproof/queue';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { orQueueUnavailable } from '../common/queue-unavailable';
import { awaitStoredOutcome, type AwaitedOutcome, type StoredOutcome } from '../common/stored-outcome';
import type { FixRequest } from './dto/fix.request';

/** What a fix run's answers name besides its result: its id. */
export type FixSubject = { id: string };
/** A stored fix run: done, still queued, or failed (compile_failed, payload_too_large, internal_error). */
export type FixOutcome = StoredOutcome<StoredFixRun, FixSubject>;

const NOT_FIXED = 'The email could not be fixed.';
const QUEUE_UNAVAILABLE = 'Fixes cannot be queued right now (Redis is unavailable); nothing was stored. Retry shortly.';
const DEFAULT_TIERS: FixTier[] = ['safe'];

/**
 * POST /api/fix, built as POST /api/preview is: store the email, enqueue `fix.run` on the `preview` queue,
 * await the worker within PREVIEW_BUDGET_MS, answer from PostgreSQL with the run's outcome. A run no
 * worker finished in time is pending (the API answers 503 with its id; GET /api/fix/:id returns it later).
 * The HTTP controller, MCP's fix_email and the dashboard's Fix action all come through here.
 */
@Injectable()
export class FixService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly fixRuns: FixRunRepository,
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
    private readonly retention: RetentionRepository,
  ) {}

  async create(request: FixRequest, account: AuthenticatedAccount | undefined): Promise<AwaitedOutcome<StoredFixRun, FixSubject>> {
    const started = Date.now();
    const budgetMs = this.config.previews.budgetMs;
    const events = await orQueueUnavailable(this.queueEvents.getWithin('preview', this.config.redis.commandTimeoutMs), QUEUE_UNAVAILABLE);
    const run = await this.fixRuns.create({
      accountId: account?.accountId ?? null,
      format: request.format ?? 'html',
      clients: request.clients ?? [...CLIENT_IDS],
      tiers: request.tiers ?? DEFAULT_TIERS,
      source: request.html,
      files: request.files ?? null,
      mjmlValidation: request.mjmlValidation ?? null,
      // Nothing lists fix runs: every one is kept as long as an anonymous preview, for GET /api/fix/:id.
      expiresAt: new Date(started + this.config.previews.anonymousTtlHours * 3_600_000),
      retain: request.retain !== false,
    });
    const job = fixRunJob(run.id);
    // Watched before it is added (its id is new): no round trip to ask whether it finished already.
    const watched = watchJob<FixJobResult>(events, job.jobId, budgetMs - (Date.now() - started));
    try {
      await orQueueUnavailable(this.jobs.enqueue(job), QUEUE_UNAVAILABLE, () => this.fixRuns.withdraw(run.id));
    } catch (error) {
      watched.cancel();
      throw error;
    }
    const outcome = await awaitStoredOutcome({
      job: watched.outcome,
      budgetMs,
      reread: () => this.fixRuns.find(run.id),
      outcomeOf: fixRunOutcome,
      subject: { id: run.id },
    });
    // retain: false (or an account keeping 0 days): the answer holds the result; the run goes now (a run still pending goes at the next sweep).
    if (!run.retain && outcome.state !== 'pending') await this.retention.deleteFixRun(run.id);
    return outcome;
  }

  /** Anonymous runs: anyone with the id. Account runs: that account only (null for everyone else, as for an unknown or expired id). */
  async read(id: string, account: AuthenticatedAccount | undefined): Promise<FixOutcome | null> {
    const run = await this.fixRuns.find(id);
    if (!run || (run.accountId !== null && run.accountId !== account?.accountId)) return null;
    return fixRunOutcome(run);
  }
}

/**
 * What a stored run says: done, queued, or failed. A run fails only as its work does (compile_failed,
 * payload_too_large); any other stored code is an internal_error with the stored sentence.
 */
export function fixRunOutcome(run: StoredFixRun): FixOutcome {
  const subject = { id: run.id };
  if (run.status === 'queued') return { state: 'pending', subject };
  if (run.status === 'completed') return { state: 'done', value: run };
  const failure = run.failure ?? { code: 'internal_error', message: NOT_FIXED };
  if (failure.code === 'compile_failed' || failure.code === 'payload_too_large') return { state: 'failed', subject, failure };
  return { state: 'failed', subject, failure: { code: 'internal_error', message: failure.message || NOT_FIXED } };
}

/** A completed run's answer as an object (MCP, the dashboard); the HTTP answer sends the stored bytes instead. */
export function fixRunResult(run: StoredFixRun): FixRunResult {
  return JSON.parse(decodePreviewResult(run.result ?? Buffer.alloc(0)).toString('utf8')) as FixRunResult;
}
