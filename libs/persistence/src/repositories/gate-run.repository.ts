import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { GateRunOptions, GateSnapshot, GateSuggestedFix, GateVisualSnapshot, StoredGateVerdict, StoredLinkResolution } from '@mailproof/contracts';
import { GateBaselineEntity } from '../entities/gate-baseline.entity';
import { GateRunEntity } from '../entities/gate-run.entity';
import { RowCipher } from '../encryption/row-cipher';
import type { SealContext } from '../encryption/envelope';
import { pgSafe } from '../pg-safe-text';
import { OPAQUE_ID_PATTERN, opaqueId } from '../random-id';
import { WebhookRepository, type NewWebhookEvent } from './webhook.repository';

export interface NewGateRun {
  accountId: string;
  ref: string | null;
  request: GateRunOptions;
  previewId: string;
}

export interface GateRunListItem {
  id: string;
  ref: string | null;
  status: GateRunEntity['status'];
  passed: boolean | null;
  overallScore: number | null;
  previewId: string | null;
  failures: number | null;
  createdAt: string;
  completedAt: string | null;
}

/** A ref and its latest run: one row of the gate runs overview. */
export interface GateRefSummary {
  ref: string;
  latestRunId: string;
  status: GateRunEntity['status'];
  passed: boolean | null;
  overallScore: number | null;
  createdAt: string;
}

export interface GateScorePoint {
  runId: string;
  status: GateRunEntity['status'];
  passed: boolean | null;
  overallScore: number | null;
  createdAt: Date;
}

export interface StoredBaseline {
  runId: string;
  snapshot: GateSnapshot;
  /** The visual check's part, opened; null when the run that set the baseline did not run `visual`. */
  visual: GateVisualSnapshot | null;
  createdAt: Date;
}

/** What the verdict step decided for a run, written together with the baseline move. */
export interface GateRunDecision {
  verdict: StoredGateVerdict;
  passed: boolean;
  overallScore: number | null;
  /** The snapshot that becomes the ref's baseline, or null to leave the baseline as it is. */
  newBaseline: GateSnapshot | null;
  /** With a new baseline: its visual part (this run's divergence and reference fingerprint), null when the run did not measure it. */
  newVisualBaseline?: GateVisualSnapshot | null;
  /** Webhook events recorded with the verdict (gate.failed / gate.passed), in the same transaction. */
  webhookEvents?: NewWebhookEvent[];
  /** The follow-up job gate.suggest-fix will settle the verdict's suggested fix (a failed verdict). */
  suggestedFixPending?: boolean;
}

/** The run as decided, and the webhook deliveries its verdict created (to queue after the commit). */
export interface DecidedGateRun {
  run: GateRunEntity;
  webhookDeliveries: string[];
}

/** Where a run's sealed column belongs (its AAD): links and verdict name the email's URLs (docs/privacy.md). */
export function gateRunContext(run: { id: string; accountId: string }, column: 'links' | 'verdict' | 'request.url'): SealContext {
  return { table: 'gate_runs', column, rowId: run.id, accountId: run.accountId };
}

/** Where a baseline's sealed visual part belongs: its account and ref (the row's key). */
export function gateBaselineContext(accountId: string, ref: string): SealContext {
  return { table: 'gate_baselines', column: 'visual', rowId: ref, accountId };
}

/**
 * Gate runs. `links` and `verdict` hold the email's link and image URLs, so they are sealed with the account's data key
 * (RowCipher, like the preview's source): sealed here before they are written, opened here after they are read.
 */
@Injectable()
export class GateRunRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhookRepository,
    private readonly cipher: RowCipher,
  ) {}

  /** A run as read: its sealed columns opened (a value stored before encryption is read as it is). */
  async opened<T extends Pick<GateRunEntity, 'id' | 'accountId'> & Partial<Pick<GateRunEntity, 'links' | 'verdict' | 'request'>>>(run: T): Promise<T> {
    if (run.links) run.links = await this.cipher.openJson(gateRunContext(run, 'links'), run.links);
    if (run.verdict) run.verdict = await this.cipher.openJson(gateRunContext(run, 'verdict'), run.verdict);
    if (run.request?.url) run.request = { ...run.request, url: await this.cipher.openText(gateRunContext(run, 'request.url'), run.request.url) };
    return run;
  }

  /** A column's stored form: the sealed JSON (a jsonb string). */
  sealColumn(run: { id: string; accountId: string }, column: 'links' | 'verdict', value: unknown): Promise<string> {
    return this.cipher.sealJson(gateRunContext(run, column), value);
  }

  private get runs() {
    return this.dataSource.getRepository(GateRunEntity);
  }

  async create(run: NewGateRun): Promise<GateRunEntity> {
    const entity = this.runs.create({
      ...run,
      id: opaqueId('gtr'),
      status: 'running',
      passed: null,
      overallScore: null,
      links: null,
      verdict: null,
      failure: null,
      completedAt: null,
      suggestedFix: null,
      suggestedFixPending: false,
    });
    // The page a url-mode run imports its email from may carry a token like the email's own links: sealed too.
    const url = entity.request.url;
    const stored =
      url === null ? entity : { ...entity, request: { ...entity.request, url: await this.cipher.sealText(gateRunContext(entity, 'request.url'), url) } };
    await this.runs.insert(stored as QueryDeepPartialEntity<GateRunEntity>);
    return entity;
  }

  async find(id: string): Promise<GateRunEntity | null> {
    if (!OPAQUE_ID_PATTERN.test(id) || !id.startsWith('gtr_')) return null;
    const run = await this.runs.findOne({ where: { id } });
    return run && this.opened(run);
  }

  /** The account's run; another account's is null, like one that does not exist. */
  async findForAccount(accountId: string, id: string): Promise<GateRunEntity | null> {
    const run = await this.find(id);
    return run && run.accountId === accountId ? run : null;
  }

  /** The account's runs, newest first, optionally of one ref. */
  async list(accountId: string, ref: string | undefined, page: number, pageSize: number): Promise<{ items: GateRunListItem[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.runs.find({
        where: ref === undefined ? { accountId } : { accountId, ref },
        select: {
          id: true,
          accountId: true,
          ref: true,
          status: true,
          passed: true,
          overallScore: true,
          previewId: true,
          verdict: true,
          createdAt: true,
          completedAt: true,
        },
        order: { createdAt: 'DESC', id: 'ASC' },
        skip: (page - 1) * pageSize,
        take: pageSize,
      }),
      // count(*), not the ORM's count(DISTINCT id), which sorts every run of the account.
      this.dataSource.query(
        ref === undefined
          ? 'SELECT count(*)::int AS total FROM gate_runs WHERE account_id = $1'
          : 'SELECT count(*)::int AS total FROM gate_runs WHERE account_id = $1 AND ref = $2',
        ref === undefined ? [accountId] : [accountId, ref],
      ) as Promise<Array<{ total: number }>>,
    ]);
    for (const row of rows) await this.opened(row);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        ref: row.ref,
        status: row.status,
        passed: row.passed,
        overallScore: row.overallScore,
        previewId: row.previewId,
        failures: Array.isArray(row.verdict?.failures) ? row.verdict.failures.length : null,
        createdAt: row.createdAt.toISOString(),
        completedAt: row.completedAt?.toISOString() ?? null,
      })),
    };
  }

  /**
   * The account's refs with their latest run, most recently run first. A loose index scan over
   * gate_runs_account_ref_created_idx: one index probe per ref, however many runs each has.
   */
  async latestPerRef(accountId: string, limit: number): Promise<GateRefSummary[]> {
    const rows: Array<{ ref: string; id: string; status: GateRunEntity['status']; passed: boolean | null; overall_score: number | null; created_at: Date }> =
      await this.dataSource.query(
        `WITH RECURSIVE refs(ref) AS (
           (SELECT ref FROM gate_runs WHERE account_id = $1 AND ref IS NOT NULL ORDER BY ref LIMIT 1)
           UNION ALL
           SELECT (SELECT g.ref FROM gate_runs g WHERE g.account_id = $1 AND g.ref > refs.ref ORDER BY g.ref LIMIT 1) FROM refs WHERE refs.ref IS NOT NULL
         )
         SELECT refs.ref, last.id, last.status, last.passed, last.overall_score, last.created_at
         FROM refs CROSS JOIN LATERAL (
           SELECT id, status, passed, overall_score, created_at FROM gate_runs g
           WHERE g.account_id = $1 AND g.ref = refs.ref ORDER BY g.created_at DESC LIMIT 1
         ) last
         WHERE refs.ref IS NOT NULL
         ORDER BY last.created_at DESC, refs.ref
         LIMIT $2`,
        [accountId, limit],
      );
    return rows.map((r) => ({
      ref: r.ref,
      latestRunId: r.id,
      status: r.status,
      passed: r.passed,
      overallScore: r.overall_score,
      createdAt: r.created_at.toISOString(),
    }));
  }

  /** The latest `limit` runs of a ref, oldest first, without their verdicts: what a score plot needs. */
  async scoreHistory(accountId: string, ref: string, limit: number): Promise<GateScorePoint[]> {
    const rows = await this.runs.find({
      where: { accountId, ref },
      select: { id: true, status: true, passed: true, overallScore: true, createdAt: true },
      order: { createdAt: 'DESC', id: 'ASC' },
      take: limit,
    });
    return rows.reverse().map((r) => ({ runId: r.id, status: r.status, passed: r.passed, overallScore: r.overallScore, createdAt: r.createdAt }));
  }

  /** Link resolution's findings, kept (sealed) for the verdict step (a redelivery overwrites them with its own). */
  async storeLinks(run: Pick<GateRunEntity, 'id' | 'accountId'>, links: StoredLinkResolution): Promise<void> {
    await this.dataSource.query(`UPDATE gate_runs SET links = $2::jsonb WHERE id = $1 AND status = 'running'`, [
      run.id,
      await this.sealColumn(run, 'links', pgSafe(links)),
    ]);
  }

  /**
   * Settles a failed verdict's suggested fix (docs/gate.md, "Suggested fix"): stores it (null: the safe fixes
   * resolve nothing, or it could not be computed) and records the webhook events that waited for it, in one
   * transaction. Only a pending run changes: a redelivery's second settlement records nothing and returns null.
   */
  async settleSuggestedFix(id: string, suggestedFix: GateSuggestedFix | null, webhookEvents: NewWebhookEvent[]): Promise<string[] | null> {
    return this.dataSource.transaction(async (manager) => {
      const settled: unknown[] = await manager.query(
        `UPDATE gate_runs SET suggested_fix = $2::jsonb, suggested_fix_pending = false WHERE id = $1 AND suggested_fix_pending RETURNING id, urls_removed_at`,
        [id, suggestedFix === null ? null : JSON.stringify(pgSafe(suggestedFix))],
      );
      // node-postgres answers an UPDATE ... RETURNING through TypeORM as [rows, count].
      const rows = (Array.isArray(settled[0]) ? settled[0] : settled) as Array<{ id: string; urls_removed_at: Date | null }>;
      if (rows.length === 0) return null;
      const deliveries: string[] = [];
      for (const event of webhookEvents) deliveries.push(...(await this.webhooks.recordEvent(manager, event)));
      // The events were built from the run as read before this transaction: when a purge or retain: false stripped
      // the run's URLs meanwhile (it holds the same row lock), the events it could not see yet lose them here.
      if (rows[0].urls_removed_at !== null) await this.webhooks.stripGateEventUrls(manager, [id]);
      return deliveries;
    });
  }

  /** Ends a running run without a verdict; a finished run keeps its outcome (first writer wins). */
  async fail(id: string, failure: NonNullable<GateRunEntity['failure']>): Promise<boolean> {
    const result = await this.runs.update({ id, status: 'running' }, { status: 'failed', failure, completedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /** Ends the running run(s) of a preview whose analysis failed for good; returns how many. */
  async failForPreview(previewId: string, failure: NonNullable<GateRunEntity['failure']>): Promise<number> {
    const result = await this.runs.update({ previewId, status: 'running' }, { status: 'failed', failure, completedAt: new Date() });
    return result.affected ?? 0;
  }

  /**
   * Decides a run in one transaction: the run row is locked, and so is its ref (a transaction-scoped
   * advisory lock on account + ref), so two runs of one ref at the same moment take turns: the second
   * compares against what the first stored, never against a half-written baseline, and no baseline
   * move is lost. `decide` gets the stored baseline and returns the verdict and the baseline move; it
   * is not called for a run that is no longer running (a redelivered step), whose row is returned.
   */
  async decide(
    id: string,
    decide: (run: GateRunEntity, baseline: StoredBaseline | null) => Promise<GateRunDecision> | GateRunDecision,
  ): Promise<DecidedGateRun> {
    return this.dataSource.transaction(async (manager) => {
      const locked = await manager.getRepository(GateRunEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new Error(`gate run ${id} does not exist`);
      const run = await this.opened(locked);
      if (run.status !== 'running') return { run, webhookDeliveries: [] };
      if (run.ref !== null) await lockRef(manager, run.accountId, run.ref);
      const baseline = run.ref === null ? null : await this.readBaseline(manager, run.accountId, run.ref);
      const decision = await decide(run, baseline);
      const completedAt = new Date();
      const suggestedFixPending = decision.suggestedFixPending === true;
      Object.assign(run, {
        status: 'completed',
        verdict: decision.verdict,
        passed: decision.passed,
        overallScore: decision.overallScore,
        completedAt,
        suggestedFixPending,
      });
      await manager.query(
        `UPDATE gate_runs SET status = 'completed', verdict = $2::jsonb, passed = $3, overall_score = $4, completed_at = $5, suggested_fix_pending = $6 WHERE id = $1`,
        [id, await this.sealColumn(run, 'verdict', pgSafe(decision.verdict)), decision.passed, decision.overallScore, completedAt, suggestedFixPending],
      );
      if (decision.newBaseline && run.ref !== null) {
        // Raw SQL: the baseline's created_at must move with it (comparedTo is that time), which an ORM upsert leaves alone.
        // The visual part moves with the snapshot: a baseline's two parts are always of the same version (null when it was not measured).
        const visual = decision.newVisualBaseline
          ? await this.cipher.sealJson(gateBaselineContext(run.accountId, run.ref), pgSafe(decision.newVisualBaseline))
          : null;
        await manager.query(
          `INSERT INTO gate_baselines (account_id, ref, run_id, snapshot, visual, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
           ON CONFLICT (account_id, ref) DO UPDATE SET run_id = EXCLUDED.run_id, snapshot = EXCLUDED.snapshot, visual = EXCLUDED.visual, created_at = EXCLUDED.created_at`,
          [run.accountId, run.ref, id, JSON.stringify(pgSafe(decision.newBaseline)), visual, completedAt],
        );
      }
      const webhookDeliveries: string[] = [];
      for (const event of decision.webhookEvents ?? [])
        webhookDeliveries.push(...(await this.webhooks.recordEvent(manager, { ...event, occurredAt: completedAt })));
      return { run, webhookDeliveries };
    });
  }

  /** The stored baseline of a ref (outside any run; for reading and tests). */
  async baseline(accountId: string, ref: string): Promise<StoredBaseline | null> {
    return this.readBaseline(this.dataSource.manager, accountId, ref);
  }

  /** A baseline's visual part as stored (a sealed jsonb string), opened; null stays null. */
  async openVisualBaseline(accountId: string, ref: string, stored: unknown): Promise<GateVisualSnapshot | null> {
    if (stored === null || stored === undefined) return null;
    return this.cipher.openJson<GateVisualSnapshot>(gateBaselineContext(accountId, ref), stored as string);
  }

  private async readBaseline(manager: EntityManager, accountId: string, ref: string): Promise<StoredBaseline | null> {
    const row = await manager.getRepository(GateBaselineEntity).findOne({ where: { accountId, ref } });
    if (!row) return null;
    return { runId: row.runId, snapshot: row.snapshot, visual: await this.openVisualBaseline(accountId, ref, row.visual), createdAt: row.createdAt };
  }
}

async function lockRef(manager: EntityManager, accountId: string, ref: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`gate-baseline/${accountId}/${ref}`]);
}
