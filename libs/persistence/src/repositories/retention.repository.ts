import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { StoredGateVerdict } from '@mailproof/contracts';
import { RowCipher } from '../encryption/row-cipher';
import { gateRunContext } from './gate-run.repository';
import { ScreenshotRepository } from './screenshot.repository';
import { failureWithoutUrl, WebhookRepository } from './webhook.repository';

/** What one retention sweep removed. */
export interface RetentionSweepResult {
  /** Previews whose source, files, result, gate summary, screenshots and shares went (the row and its scores stay). */
  previewsPurged: number;
  fixRunsDeleted: number;
  webhookEventsDeleted: number;
  screenshotImagesDeleted: number;
  /** Gate runs whose link findings and failures' URLs went with their email (the verdict's scores and rule ids stay). */
  gateRunsStripped: number;
}

/** What a purged preview's failure says instead of its message (which may quote a line of the template). */
export const REMOVED_FAILURE_MESSAGE = "The message was removed with the email's content.";

/**
 * A gate run that may still hold URLs of its email: link findings, a verdict or the page it imported the email from, not stripped yet. Both are sealed, so
 * SQL cannot look inside: `urls_removed_at` records that a run was stripped.
 */
const GATE_RUN_HOLDS_URLS = `g.urls_removed_at IS NULL AND (g.links IS NOT NULL OR g.verdict IS NOT NULL OR g.request->>'url' IS NOT NULL)`;

/**
 * A verdict without its email's URLs (link and image addresses, personal receipt links): the links failures' href,
 * the alt-text failures' src, the unreachable links' url and the unchecked links' url become ''. The rest stays:
 * passed, scores, checks, rule ids, reasons and statuses (what the dashboard, a baseline and a webhook consumer read).
 */
export function verdictWithoutUrls(verdict: StoredGateVerdict): StoredGateVerdict {
  const failures = (verdict.failures ?? []).map(failureWithoutUrl);
  const links = verdict.links ? { ...verdict.links, unchecked: (verdict.links.unchecked ?? []).map((entry) => ({ ...entry, url: '' })) } : verdict.links;
  return { ...verdict, failures, links };
}

/**
 * How long work may still be under way before the sweep stops waiting for it (RetentionSweepLimits): a preview
 * still queued or with a running gate run, a fix run still queued, a webhook event with a delivery still pending
 * is left alone while its job may yet need it, and swept like the rest once it is older than that (a lost job).
 */
export interface RetentionSweepLimits {
  /** A job chain of a preview, gate run or fix run (its queue wait, attempts and backoff). Default 24 hours. */
  jobsMs: number;
  /** A webhook delivery's whole retry schedule. Default 24 hours. */
  webhookDeliveriesMs: number;
}

/** The longest a preview, gate or fix job chain is waited for (documented in docs/privacy.md, "The sweep"). */
export const JOB_CHAIN_LIFETIME_MS = 24 * 3_600_000;

/**
 * How long a webhook delivery can still be retried: its attempts' timeouts and the doubling backoff between them
 * (WEBHOOK_ATTEMPTS, WEBHOOK_BACKOFF_MS, WEBHOOK_TIMEOUT_MS), an hour's margin, and never less than a job chain's lifetime.
 */
export function webhookDeliveryLifetimeMs(webhooks: { attempts: number; backoffMs: number; timeoutMs: number }): number {
  const waits = webhooks.backoffMs * (2 ** (webhooks.attempts - 1) - 1);
  return Math.max(JOB_CHAIN_LIFETIME_MS, waits + webhooks.attempts * webhooks.timeoutMs + 3_600_000);
}

const DEFAULT_LIMITS: RetentionSweepLimits = { jobsMs: JOB_CHAIN_LIFETIME_MS, webhookDeliveriesMs: JOB_CHAIN_LIFETIME_MS };

/**
 * A preview's content is due: its request said retain: false, or its account's retention has passed; and no job needs it
 * any more (its analysis done, no gate run of it running), or it is older than a job chain can live ($2, a lost job).
 */
const CONTENT_DUE = `p.content_removed_at IS NULL
  AND (p.retain = false OR (a.id IS NOT NULL AND p.created_at + a.retention_days * interval '1 day' <= $1))
  AND (p.created_at <= $2 OR (p.status <> 'queued'
    AND NOT EXISTS (SELECT 1 FROM gate_runs g WHERE g.preview_id = p.id AND g.status = 'running')))`;

const BATCH = 500;

/**
 * Strips the email's URLs from the gate runs `where` selects (alias g; at most one batch), and from their webhook
 * events: links go, the verdict is opened, stripped (verdictWithoutUrls) and sealed again. Returns how many runs.
 */
async function stripGateRuns(manager: EntityManager, cipher: RowCipher, webhooks: WebhookRepository, where: string, parameters: unknown[]): Promise<number> {
  const runs: Array<{ id: string; account_id: string; verdict: StoredGateVerdict | string | null }> = await manager.query(
    `SELECT g.id, g.account_id, g.verdict FROM gate_runs g WHERE ${where} AND ${GATE_RUN_HOLDS_URLS} LIMIT ${BATCH} FOR UPDATE`,
    parameters,
  );
  if (runs.length === 0) return 0;
  const verdicts: Array<string | null> = [];
  for (const row of runs) {
    const run = { id: row.id, accountId: row.account_id };
    const verdict = row.verdict === null ? null : await cipher.openJson<StoredGateVerdict>(gateRunContext(run, 'verdict'), row.verdict);
    verdicts.push(verdict === null ? null : await cipher.sealJson(gateRunContext(run, 'verdict'), verdictWithoutUrls(verdict)));
  }
  await manager.query(
    `UPDATE gate_runs g SET links = NULL, verdict = v.verdict, request = jsonb_set(g.request, '{url}', 'null'::jsonb), urls_removed_at = now() FROM unnest($1::text[], $2::jsonb[]) AS v(id, verdict) WHERE g.id = v.id`,
    [runs.map((run) => run.id), verdicts],
  );
  await webhooks.stripGateEventUrls(
    manager,
    runs.map((run) => run.id),
  );
  return runs.length;
}

/**
 * Retention (docs/privacy.md): what an account keeps, and for how long. Removing a preview's content
 * keeps the row (id, title, status, overall score: what a dashboard list needs; a gate baseline is a snapshot
 * of its own) and removes everything that carries the email: the source and its files, the stored result
 * (rendered markup per client), the gate's summary (it names every link and image URL), the screenshots, the
 * rendered reports and the shares. Fix runs and webhook events are removed whole.
 */
@Injectable()
export class RetentionRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly screenshots: ScreenshotRepository,
    private readonly cipher: RowCipher,
    private readonly webhooks: WebhookRepository,
  ) {}

  /** Deletes a finished fix run now (its request said retain: false and has its answer). */
  async deleteFixRun(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM fix_runs WHERE id = $1 AND status <> 'queued'`, [id]);
  }

  /** Removes the content of the given previews now (retain: false once the chain that needed it is done); returns how many. */
  async purgePreviews(ids: readonly string[], now = new Date()): Promise<number> {
    if (ids.length === 0) return 0;
    const hashes = await this.screenshots.hashesOf(ids);
    const purged = await this.dataSource.transaction(async (manager) => {
      const [, count]: [unknown, number] = await manager.query(
        `UPDATE previews SET source = '', files = NULL, result = NULL, gate_summary = NULL, screenshots = NULL, rendered_reports = NULL, content_removed_at = $2,
           failure = CASE WHEN failure IS NULL THEN NULL ELSE jsonb_set(failure, '{message}', to_jsonb($3::text)) END
         WHERE id = ANY($1) AND content_removed_at IS NULL`,
        [ids, now, REMOVED_FAILURE_MESSAGE],
      );
      // The preview's gate runs keep their verdict, without the email's URLs (a run has one preview: one batch at most).
      await stripGateRuns(manager, this.cipher, this.webhooks, 'g.preview_id = ANY($1)', [ids]);
      await manager.query('DELETE FROM preview_screenshots WHERE preview_id = ANY($1)', [ids]);
      await manager.query('DELETE FROM shares WHERE preview_id = ANY($1)', [ids]);
      return count;
    });
    await this.screenshots.deleteUnreferenced(hashes);
    return purged;
  }

  /** One sweep: everything past its time, in batches, until nothing is due. */
  async sweep(now = new Date(), limits: RetentionSweepLimits = DEFAULT_LIMITS): Promise<RetentionSweepResult> {
    const jobsGone = new Date(now.getTime() - limits.jobsMs);
    const deliveriesGone = new Date(now.getTime() - limits.webhookDeliveriesMs);
    let previewsPurged = 0;
    for (;;) {
      const due: Array<{ id: string }> = await this.dataSource.query(
        `SELECT p.id FROM previews p LEFT JOIN accounts a ON a.id = p.account_id WHERE ${CONTENT_DUE} LIMIT ${BATCH}`,
        [now, jobsGone],
      );
      if (due.length === 0) break;
      previewsPurged += await this.purgePreviews(
        due.map((row) => row.id),
        now,
      );
      if (due.length < BATCH) break;
    }
    const [, fixRunsDeleted]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM fix_runs f WHERE (f.status <> 'queued' OR f.created_at <= $2) AND (f.retain = false
         OR EXISTS (SELECT 1 FROM accounts a WHERE a.id = f.account_id AND f.created_at + a.retention_days * interval '1 day' <= $1))`,
      [now, jobsGone],
    );
    // An event goes with its delivery log once no delivery of it is still pending, or once its deliveries' retries are over anyway.
    const [, webhookEventsDeleted]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM webhook_events e USING accounts a WHERE a.id = e.account_id AND e.created_at + a.retention_days * interval '1 day' <= $1
         AND (e.created_at <= $2 OR NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending'))`,
      [now, deliveriesGone],
    );
    // Gate runs past their account's retention whose preview went another way (deleted) lose the email's URLs too.
    let gateRunsStripped = 0;
    for (;;) {
      const stripped = await this.dataSource.transaction((manager) =>
        stripGateRuns(
          manager,
          this.cipher,
          this.webhooks,
          `(g.status <> 'running' OR g.created_at <= $2)
             AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = g.account_id AND g.created_at + a.retention_days * interval '1 day' <= $1)`,
          [now, jobsGone],
        ),
      );
      gateRunsStripped += stripped;
      if (stripped < BATCH) break;
    }
    const screenshotImagesDeleted = await this.screenshots.deleteUnreferenced();
    return { previewsPurged, fixRunsDeleted, webhookEventsDeleted, screenshotImagesDeleted, gateRunsStripped };
  }
}
