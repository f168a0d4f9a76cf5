import { Injectable, Logger } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import {
  GATE_LINKS_MAX_MS,
  GATE_MAX_LINKS,
  gateSuggestFixJob,
  type GateImportJobResult,
  type GateSuggestFixJobResult,
  type GateLinks,
  type GateVerdictJobResult,
  type GateVisualSnapshot,
  type LinksResolveJobResult,
} from '@mailproof/contracts';
import { gateResultOf, gateSnapshot, gateVerdict, type GateResult, type GateSuggestedFix, type GateSummary } from '@mailproof/engine';
import { importEmailFromUrl, resolveLinks, SsrfGuard, UrlImportError, type LinkResolution } from '@mailproof/net-guard';
import {
  GateRunRepository,
  PreviewRepository,
  type GateRunDecision,
  type GateRunEntity,
  type NewWebhookEvent,
  type StoredBaseline,
} from '@mailproof/persistence';
import { JobProducer, type FinalFailureCause } from '@mailproof/queue';
import { WebhookQueue } from '@mailproof/webhooks';
import { AnalysisPool } from '../analysis/analysis-pool';
import { GateVisualReader } from './gate-visual.reader';
import { RedisLinkCheckCache } from './redis-link-check.cache';

/**
 * The gate's steps after the API stored a run (docs/gate.md). Each reads its input from PostgreSQL and
 * is idempotent: a redelivered step finds its work done or the run ended, and does nothing twice.
 */
@Injectable()
export class GateRunService {
  private readonly logger = new Logger('GateRun');
  private readonly guard: SsrfGuard;

  constructor(
    config: MailproofConfig,
    private readonly runs: GateRunRepository,
    private readonly previews: PreviewRepository,
    private readonly linkCache: RedisLinkCheckCache,
    private readonly webhooks: WebhookQueue,
    private readonly pool: AnalysisPool,
    private readonly jobs: JobProducer,
    private readonly visual: GateVisualReader,
  ) {
    this.guard = new SsrfGuard({ allowedAddresses: config.netGuard.allowedAddresses });
  }

  /** gate.import: fetch the email of a `url` run into its preview; a declined or unreachable URL ends the run. */
  async importEmail(runId: string): Promise<GateImportJobResult> {
    const run = await this.runs.find(runId);
    if (!run || run.status !== 'running' || !run.previewId) return { runId, imported: false };
    try {
      const { html } = await importEmailFromUrl(run.request.url ?? '', { guard: this.guard });
      await this.previews.fillSource(run.previewId, html, run.accountId);
      return { runId, imported: true };
    } catch (error) {
      if (!(error instanceof UrlImportError)) throw error;
      const failure = { code: error.code, message: error.reason };
      // The preview is failed too, so the analysis step that follows finds nothing to do.
      await this.previews.storeOutcome(run.previewId, { failure });
      await this.runs.fail(runId, failure);
      return { runId, imported: false };
    }
  }

  /** links.resolve: check the email's http(s) links until the run's deadline, and keep what was found. */
  async resolveLinks(runId: string, deadline: number): Promise<LinksResolveJobResult> {
    const run = await this.runs.find(runId);
    if (!run || run.status !== 'running' || !run.previewId) return { runId, checked: 0, unchecked: 0 };
    const result = await this.completedResult(run.previewId);
    if (!result) return { runId, checked: 0, unchecked: 0 };
    const urls = (result.linkReport?.links ?? []).filter((link) => link.scheme === 'http' || link.scheme === 'https').map((link) => link.href.trim());
    const budgetMs = Math.max(0, Math.min(GATE_LINKS_MAX_MS, deadline - Date.now()));
    const resolution = withoutRateLimited(await resolveLinks(urls, { guard: this.guard, maxUrls: GATE_MAX_LINKS, budgetMs, cache: this.linkCache }));
    await this.runs.storeLinks(run, resolution);
    return { runId, checked: resolution.checked.length, unchecked: resolution.unchecked.length };
  }

  /**
   * gate.verdict: decide the run against its ref's baseline and move the baseline as updateBaseline says.
   * A failed verdict's suggested fix is left to the follow-up job gate.suggest-fix, added here once the
   * verdict is stored: the API answers without waiting for it (docs/gate.md, "Suggested fix").
   */
  async decide(runId: string): Promise<GateVerdictJobResult> {
    const run = await this.runs.find(runId);
    if (!run) return { runId, status: 'failed', passed: null };
    if (run.status !== 'running') {
      // A redelivery after the verdict was stored: the worker may have died before adding the follow-up (its job id makes a second add a no-op).
      if (run.suggestedFixPending) await this.jobs.enqueue(gateSuggestFixJob(runId));
      return { runId, status: run.status === 'completed' ? 'completed' : 'failed', passed: run.passed };
    }
    const preview = run.previewId ? await this.previews.findGateSummary(run.previewId) : null;
    if (!preview || preview.status !== 'completed' || !preview.gateSummary) {
      const failure = preview?.failure ?? { code: 'internal_error', message: 'The email of this gate run was not analyzed.' };
      await this.runs.fail(runId, failure);
      return { runId, status: 'failed', passed: null };
    }
    const summary = JSON.parse(preview.gateSummary) as GateSummary;
    const result = gateResultOf(summary);
    // No finding the safe fixes target: a failed verdict's suggestion is known to be absent, no follow-up needed.
    const nothingToFix = summary.safeFixTargets === 0;
    // The visual check (a ref and `visual`): what worker-render measured of this version, read before the run's lock is taken.
    const visual = run.ref !== null && run.request.checks.includes('visual') ? await this.visual.read(preview.id, run.request.clients) : null;
    const { run: decided, webhookDeliveries } = await this.runs.decide(runId, (current, baseline) =>
      decideRun(current, baseline, result, nothingToFix, visual),
    );
    await this.webhooks.queueDeliveries(webhookDeliveries);
    if (decided.suggestedFixPending) await this.jobs.enqueue(gateSuggestFixJob(runId));
    return { runId, status: decided.status === 'completed' ? 'completed' : 'failed', passed: decided.passed };
  }

  /**
   * gate.suggest-fix: a failed verdict gains `suggestedFix` when the safe fixes resolve findings of the email
   * it judged (docs/gate.md, "Suggested fix"), computed in an analysis thread. Settling it stores it and
   * records the run's gate.failed event, which waited for it, in one transaction. Advice only: a failure to
   * compute it is logged and the run settles without it.
   */
  async settleSuggestedFix(runId: string): Promise<GateSuggestFixJobResult> {
    const run = await this.runs.find(runId);
    if (!run || !run.suggestedFixPending) return { runId, fixable: null };
    let suggested: GateSuggestedFix | null = null;
    let computedBy: GateSuggestFixJobResult['computedBy'];
    try {
      // Computed already by the run's analysis in this process, from its own findings (AnalysisPool): the same suggestion.
      const held = run.previewId ? await this.pool.takeSuggestedFix(run.previewId) : undefined;
      if (held) {
        suggested = held.suggestedFix;
        computedBy = 'analysis';
      } else {
        suggested = await this.computeSuggestedFix(run);
        computedBy = 'follow-up';
      }
    } catch (error) {
      this.logger.warn(`gate run ${run.id}: no suggested fix (${error instanceof Error ? error.message : String(error)})`);
    }
    await this.settle(run, suggested);
    return { runId, fixable: suggested?.fixable ?? null, ...(computedBy ? { computedBy } : {}) };
  }

  /** gate.suggest-fix failed for good: the run settles without a suggestion, so its gate.failed event is still sent. */
  async settleWithoutSuggestedFix(runId: string, cause: FinalFailureCause): Promise<void> {
    const run = await this.runs.find(runId);
    if (!run || !run.suggestedFixPending) return;
    this.logger.warn(`gate run ${runId}: the suggested fix failed for good (${cause}); settled without one`);
    await this.settle(run, null);
  }

  private async settle(run: GateRunEntity, suggested: GateSuggestedFix | null): Promise<void> {
    const deliveries = await this.runs.settleSuggestedFix(run.id, suggested, run.verdict ? [gateFailedEvent(run, suggested)] : []);
    if (deliveries) await this.webhooks.queueDeliveries(deliveries);
  }

  private async computeSuggestedFix(run: GateRunEntity): Promise<GateSuggestedFix | null> {
    if (!run.previewId) return null;
    const preview = await this.previews.findEmailToFix(run.previewId);
    if (!preview || preview.status !== 'completed') return null;
    const email =
      preview.format === 'html' ? (preview.source === null ? null : { html: preview.source }) : preview.result ? { storedResult: preview.result } : null;
    if (!email) return null;
    return this.pool.suggestFix({ format: preview.format, clients: run.request.clients, email });
  }

  /** A step failed for good: the run ends failed with a reason the API returns (never "running" forever). */
  async recordFinalFailure(runId: string, cause: FinalFailureCause): Promise<void> {
    const message =
      cause === 'stalled' ? 'The gate run stopped its worker twice (crashed or froze) and was not tried again.' : 'The gate run failed on every attempt.';
    if (await this.runs.fail(runId, { code: 'internal_error', message })) this.logger.warn(`gate run ${runId} failed for good (${cause})`);
  }

  private async completedResult(previewId: string): Promise<GateResult | null> {
    const preview = await this.previews.findGateSummary(previewId);
    if (!preview || preview.status !== 'completed' || !preview.gateSummary) return null;
    return gateResultOf(JSON.parse(preview.gateSummary) as GateSummary);
  }
}

/**
 * A site that answers 429 is busy, not broken: the link could not be checked (error), and never fails
 * the gate, whose CI re-runs would otherwise fail on a site's rate limit.
 */
function withoutRateLimited(resolution: LinkResolution): LinkResolution {
  const limited = resolution.checked.filter((check) => check.status === 429);
  if (limited.length === 0) return resolution;
  return {
    checked: resolution.checked.filter((check) => check.status !== 429),
    unchecked: [...resolution.unchecked, ...limited.map((check) => ({ url: check.url, reason: 'error' as const, detail: 'rate limited (429)' }))],
  };
}

/**
 * The verdict of one run and the baseline move (docs/gate.md, "Baselines"): `always` stores this version
 * whatever the verdict, `on-pass` only when it passed, `never` and runs without a ref never.
 */
function decideRun(
  run: GateRunEntity,
  baseline: StoredBaseline | null,
  result: GateResult,
  nothingToFix: boolean,
  visual: GateVisualSnapshot | null,
): GateRunDecision {
  const options = run.request;
  const snapshot = gateSnapshot(result);
  const runsRegression = run.ref !== null && options.checks.includes('regression');
  const runsVisual = run.ref !== null && options.checks.includes('visual');
  const compared = runsRegression && baseline !== null ? { snapshot: baseline.snapshot, createdAt: baseline.createdAt.toISOString() } : null;
  const resolution = run.links;
  const verdict = gateVerdict({
    result,
    snapshot,
    options: {
      threshold: options.threshold,
      checks: options.checks.filter((family) => (family !== 'regression' && family !== 'visual') || run.ref !== null),
      clients: options.clients,
      failOnError: options.failOnError,
      bulk: options.bulk === true,
      visualThreshold: options.visualThreshold,
    },
    baseline: compared,
    links: resolution ? { checked: resolution.checked } : undefined,
    visual: runsVisual ? { current: visual, baseline: baseline?.visual ?? null } : null,
  });
  const links: GateLinks = {
    resolved: options.resolveLinks,
    checked: resolution?.checked.length ?? 0,
    unchecked: (resolution?.unchecked ?? []).map(({ url, reason }) => ({ url, reason })),
  };
  const moves = run.ref !== null && (options.updateBaseline === 'always' || (options.updateBaseline === 'on-pass' && verdict.passed));
  return {
    // gate.passed goes with the verdict, and so does gate.failed when there is nothing to fix; otherwise it waits for the suggested fix (settleSuggestedFix records it).
    webhookEvents: verdict.passed || nothingToFix ? [gateEvent(run, verdict.passed ? 'gate.passed' : 'gate.failed', verdict)] : [],
    suggestedFixPending: !verdict.passed && !nothingToFix,
    verdict: {
      passed: verdict.passed,
      overallScore: verdict.overallScore,
      worstClient: verdict.worstClient,
      // A comparison happened when the regression check had a baseline, or the visual check a baseline's visual part.
      baseline: { ref: run.ref, comparedTo: compared?.createdAt ?? (runsVisual && visual && baseline?.visual ? baseline.createdAt.toISOString() : null) },
      failures: verdict.failures,
      notes: verdict.notes,
      checks: verdict.checks,
      links,
    },
    passed: verdict.passed,
    overallScore: verdict.overallScore,
    newBaseline: moves ? snapshot : null,
    // A baseline set by a run without `visual` keeps no visual part: its two parts are always of one version.
    newVisualBaseline: moves && runsVisual ? visual : null,
  };
}

type EventVerdict = Pick<GateRunDecision['verdict'], 'passed' | 'overallScore' | 'worstClient' | 'failures'>;

/** A run's gate.passed / gate.failed webhook event (docs/webhooks.md); the repository stamps the time it records it with. */
function gateEvent(run: GateRunEntity, type: 'gate.passed' | 'gate.failed', verdict: EventVerdict, extra: Record<string, unknown> = {}): NewWebhookEvent {
  return {
    accountId: run.accountId,
    type,
    sourceKey: `${type}/${run.id}`,
    occurredAt: new Date(),
    data: {
      runId: run.id,
      ref: run.ref,
      previewId: run.previewId,
      passed: verdict.passed,
      overallScore: verdict.overallScore,
      worstClient: verdict.worstClient,
      failures: verdict.failures,
      ...extra,
    },
  };
}

/** A failed run's gate.failed event, recorded once its suggested fix is known: with it when there is one; timed at the verdict. */
function gateFailedEvent(run: GateRunEntity, suggested: GateSuggestedFix | null): NewWebhookEvent {
  const event = gateEvent(run, 'gate.failed', run.verdict!, suggested ? { suggestedFix: suggested } : {});
  return { ...event, occurredAt: run.completedAt ?? event.occurredAt };
}
