import { Injectable } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import {
  GATE_CHECK_FAMILIES,
  GATE_DEFAULT_CHECKS,
  GATE_DEFAULT_THRESHOLD,
  GATE_VISUAL_DEFAULT_THRESHOLD,
  RENDER_MODES,
  gateImportJob,
  gateVerdictJob,
  linksResolveJob,
  previewAnalyzeJob,
  renderScreenshotsJob,
  type GateRunOptions,
  type GateVerdictResult,
  type GateVerdictJobResult,
  type JobName,
  type JobRequest,
  type StoredFailure,
} from '@mailproof/contracts';
import { CLIENT_IDS } from '@mailproof/engine';
import { GateRunRepository, PreviewRepository, RetentionRepository, type GateRunEntity } from '@mailproof/persistence';
import { JobProducer, QueueEventsRegistry, watchJob } from '@mailproof/queue';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { orQueueUnavailable } from '../common/queue-unavailable';
import { awaitStoredOutcome, type AwaitedOutcome, type StoredOutcome } from '../common/stored-outcome';
import { ProblemException } from '../problems/problem.exception';
import type { GateRequest } from './dto/gate.request';

const QUEUE_UNAVAILABLE = 'Gate runs cannot be queued right now (Redis is unavailable); nothing was stored. Retry shortly.';
/** Time kept for the verdict step after link resolution's deadline: loading the result and deciding. */
const VERDICT_RESERVE_MS = 750;

/** What a gate run's answers name besides its verdict: the run, and the preview of the analyzed email. */
export type GateRunSubject = { runId: string; previewId: string | null };
/** A gate run: decided (its verdict), still running, or ended without a verdict (its stored failure). */
export type GateRunOutcome = StoredOutcome<GateVerdictResult, GateRunSubject>;

/** GET /api/gate/runs/:id: the run, with its verdict once completed or why it ended without one (null while it runs). */
export type GateRunView = {
  id: string;
  ref: string | null;
  status: GateRunEntity['status'];
  previewId: string | null;
  createdAt: string;
  completedAt: string | null;
} & ({ verdict: GateVerdictResult } | { failure: StoredFailure | null });

/**
 * POST /api/gate: store the email as a saved preview and the run's options, start the run's job chain
 * (gate.import when a URL is given, preview.analyze, links.resolve with resolveLinks, gate.verdict) as
 * one BullMQ flow, and await its last job within GATE_BUDGET_MS (GATE_LINKS_BUDGET_MS with links). The
 * API compiles, analyzes and fetches nothing itself. The run's outcome is read from PostgreSQL, where
 * the verdict step (or the step that ended the run) stored it.
 */
@Injectable()
export class GateService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly previews: PreviewRepository,
    private readonly runs: GateRunRepository,
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
    private readonly retention: RetentionRepository,
  ) {}

  async run(request: GateRequest, account: AuthenticatedAccount): Promise<AwaitedOutcome<GateVerdictResult, GateRunSubject>> {
    const started = Date.now();
    const options = gateRunOptions(request);
    const visual = options.checks.includes('visual');
    const budgetMs = gateBudgetMs(this.config.gate, options.resolveLinks, visual);
    const events = await orQueueUnavailable(this.queueEvents.getWithin('gate', this.config.redis.commandTimeoutMs), QUEUE_UNAVAILABLE);

    const preview = await this.previews.create({
      accountId: account.accountId,
      title: `Gate run${request.ref ? `: ${request.ref}` : ''}`,
      format: options.format,
      clients: options.clients,
      // A URL's email arrives with gate.import, which fills the source before the analysis runs.
      source: request.html ?? '',
      files: request.files ?? null,
      mjmlValidation: request.mjmlValidation ?? null,
      expiresAt: null,
      retain: request.retain !== false,
    });
    const run = await this.runs.create({ accountId: account.accountId, ref: request.ref ?? null, request: options, previewId: preview.id });

    // Link resolution stops by this moment (and after GATE_LINKS_MAX_MS of its own), so the verdict still fits the budget.
    const linksDeadline = started + budgetMs - VERDICT_RESERVE_MS;
    const chain: Array<JobRequest<JobName, unknown>> = [
      ...(options.source === 'url' ? [gateImportJob(run.id)] : []),
      // The verdict options the analysis can judge alone: a failed one's suggested fix then starts from the analysis (docs/gate.md).
      previewAnalyzeJob(preview.id, { bulk: options.bulk, gate: { threshold: options.threshold, failOnError: options.failOnError, checks: options.checks } }),
      // visual: the email is painted (worker-render, as for a preview with screenshots) with its reference rendering and divergence.
      ...(visual ? [renderScreenshotsJob(preview.id, options.clients, RENDER_MODES)] : []),
      ...(options.resolveLinks ? [linksResolveJob(run.id, linksDeadline)] : []),
      gateVerdictJob(run.id),
    ];
    // The verdict is watched before the chain is added (its id is the new run's): no round trip to ask whether it finished already.
    const verdict = watchJob<GateVerdictJobResult>(events, chain[chain.length - 1].jobId, budgetMs - (Date.now() - started));
    try {
      await orQueueUnavailable(this.jobs.enqueueChain(chain), QUEUE_UNAVAILABLE, () => this.previews.deleteForAccount(account.accountId, preview.id));
    } catch (error) {
      verdict.cancel();
      throw error;
    }
    const outcome = await awaitStoredOutcome({
      job: verdict.outcome,
      budgetMs,
      reread: () => this.runs.find(run.id),
      outcomeOf: gateRunOutcome,
      subject: { runId: run.id, previewId: run.previewId },
    });
    // retain: false (or an account keeping 0 days): the verdict (and the baseline it may have set) stays, the email goes once the chain is done.
    if (!preview.retain && outcome.state !== 'pending') await this.retention.purgePreviews([preview.id]);
    return outcome;
  }

  /** The account's run; null for another account's, as for an unknown id. */
  async read(account: AuthenticatedAccount, id: string): Promise<GateRunView | null> {
    const run = await this.runs.findForAccount(account.accountId, id);
    if (!run) return null;
    const summary = {
      id: run.id,
      ref: run.ref,
      status: run.status,
      previewId: run.previewId,
      createdAt: run.createdAt.toISOString(),
      completedAt: run.completedAt?.toISOString() ?? null,
    };
    const outcome = gateRunOutcome(run);
    if (outcome.state === 'done') return { ...summary, verdict: outcome.value };
    return { ...summary, failure: run.failure };
  }

  /** The account's refs with their latest run (the dashboard's gate overview). */
  refs(account: AuthenticatedAccount, limit: number) {
    return this.runs.latestPerRef(account.accountId, limit);
  }

  /** A ref's latest runs, oldest first, for its score plot. */
  scoreHistory(account: AuthenticatedAccount, ref: string, limit: number) {
    return this.runs.scoreHistory(account.accountId, ref, limit);
  }

  async list(account: AuthenticatedAccount, ref: string | undefined, page: number, pageSize: number) {
    const { items, total } = await this.runs.list(account.accountId, ref, page, pageSize);
    return { runs: items, page, pageSize, total };
  }
}

/** A run's budget: 4 s, 12 s with link resolution, GATE_VISUAL_BUDGET_MS (30 s) when the email is painted (the longest that applies). */
export function gateBudgetMs(budgets: { budgetMs: number; linksBudgetMs: number; visualBudgetMs: number }, resolveLinks: boolean, visual: boolean): number {
  return Math.max(budgets.budgetMs, resolveLinks ? budgets.linksBudgetMs : 0, visual ? budgets.visualBudgetMs : 0);
}

/** The request with every default applied, as the run stores it. */
export function gateRunOptions(request: GateRequest): GateRunOptions {
  const hasHtml = request.html !== undefined;
  const hasUrl = request.url !== undefined;
  if (hasHtml === hasUrl) {
    const message = hasHtml ? 'give html or url, not both' : 'exactly one of html and url is required';
    throw new ProblemException('validation_failed', 'The request is invalid; see errors.', {
      errors: [
        { field: 'html', message },
        { field: 'url', message },
      ],
    });
  }
  if (hasUrl && request.files !== undefined) {
    throw new ProblemException('validation_failed', 'The request is invalid; see errors.', {
      errors: [{ field: 'files', message: 'files go with html; an email imported from url is compiled as it is fetched' }],
    });
  }
  if (hasUrl) checkUrlScheme(request.url!);
  const checks = GATE_CHECK_FAMILIES.filter((family) => (request.checks ?? GATE_DEFAULT_CHECKS).includes(family));
  if (checks.includes('visual') && request.ref === undefined) {
    // The visual check compares a client's divergence with the last passing version's: without a ref there is none.
    throw new ProblemException('validation_failed', 'The request is invalid; see errors.', {
      errors: [{ field: 'ref', message: 'the visual check compares with the baseline of a ref: give ref, or leave visual out of checks' }],
    });
  }
  return {
    source: hasUrl ? 'url' : 'html',
    url: request.url ?? null,
    format: request.format ?? 'html',
    threshold: request.threshold ?? GATE_DEFAULT_THRESHOLD,
    checks,
    clients: request.clients ?? [...CLIENT_IDS],
    failOnError: request.failOnError ?? true,
    updateBaseline: request.updateBaseline ?? 'on-pass',
    resolveLinks: request.resolveLinks ?? false,
    bulk: request.bulk ?? false,
    ...(checks.includes('visual') ? { visualThreshold: request.visualThreshold ?? GATE_VISUAL_DEFAULT_THRESHOLD } : {}),
  };
}

/** A URL that is not http(s) is declined at once; addresses are checked by the import step, which resolves the host. */
function checkUrlScheme(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ProblemException('url_declined', 'The url is not a valid absolute URL.', {
      errors: [{ field: 'url', message: 'must be an absolute http or https URL' }],
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ProblemException('url_declined', `Only http and https URLs are fetched, not ${parsed.protocol.replace(/:$/, '')}.`, {
      errors: [{ field: 'url', message: 'must be an absolute http or https URL' }],
    });
  }
  if (parsed.username || parsed.password) {
    throw new ProblemException('url_declined', 'URLs with credentials are not fetched.', {
      errors: [{ field: 'url', message: 'must not carry a user name or password' }],
    });
  }
}

/** What a stored run says: its verdict with the run's ids, still running, or the failure that ended it. */
export function gateRunOutcome(run: GateRunEntity): GateRunOutcome {
  const subject = { runId: run.id, previewId: run.previewId };
  if (run.status === 'running') return { state: 'pending', subject };
  if (run.status === 'completed' && run.verdict) {
    // The suggested fix is the follow-up job's (gate_runs.suggested_fix); verdicts stored before it hold theirs.
    const { suggestedFix: storedBefore, ...verdict } = run.verdict;
    const suggestedFix = run.suggestedFixPending ? { pending: true as const } : (run.suggestedFix ?? storedBefore);
    return { state: 'done', value: { ...verdict, ...(suggestedFix ? { suggestedFix } : {}), runId: run.id, previewId: run.previewId } };
  }
  return { state: 'failed', subject, failure: run.failure ?? { code: 'internal_error', message: 'The gate run could not be completed.' } };
}
