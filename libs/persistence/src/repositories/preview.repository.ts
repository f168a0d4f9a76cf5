import { Injectable } from '@nestjs/common';
import { DataSource, ILike, type FindOptionsOrder, type FindOptionsWhere } from 'typeorm';
import { PreviewEntity } from '../entities/preview.entity';
import { pgSafe } from '../pg-safe-text';
import { RowCipher } from '../encryption/row-cipher';
import type { SealContext } from '../encryption/envelope';
import { preparedQuery } from '../prepared-query';
import { OPAQUE_ID_PATTERN, opaqueId } from '../random-id';
import { ScreenshotRepository } from './screenshot.repository';

export interface NewPreview {
  accountId: string | null;
  title: string | null;
  format: PreviewEntity['format'];
  clients: string[];
  source: string;
  /** The files the source imports; omitted or null when none were sent. */
  files?: Record<string, string> | null;
  mjmlValidation?: 'soft' | 'strict' | null;
  expiresAt: Date | null;
  /** false: the request said retain: false (the email goes once its job chain is done). Default true. */
  retain?: boolean;
}

/** A preview just stored, with whether its email is kept past its job chain (false for retain: false or an account keeping 0 days). */
export type CreatedPreview = PreviewEntity & { retain: boolean };

/**
 * The stored `retain` of a new row, decided in its INSERT: the request's retain ($retain) unless the account
 * ($account) keeps nothing (retention 0 days), which is retain: false whatever the request said.
 */
export function retainOnInsert(retain: string, account: string): string {
  return `(${retain}::boolean AND NOT EXISTS (SELECT 1 FROM accounts WHERE id = ${account} AND retention_days = 0))`;
}

/** How a list of saved previews is ordered: by creation time or by overall score (unscored last when descending). */
export const PREVIEW_SORTS = ['date-desc', 'date-asc', 'score-desc', 'score-asc'] as const;
export type PreviewSort = (typeof PREVIEW_SORTS)[number];

export interface PreviewListOptions {
  /** A part of the title, matched case-insensitively (pg_trgm index). */
  titleContains?: string;
  sort?: PreviewSort;
}

/** Each order ends on the id, so pages never overlap; score orders match previews_account_score_idx. */
const ORDERS: Record<PreviewSort, FindOptionsOrder<PreviewEntity>> = {
  'date-desc': { createdAt: 'DESC', id: 'ASC' },
  'date-asc': { createdAt: 'ASC', id: 'DESC' },
  'score-desc': { overallScore: { direction: 'DESC', nulls: 'LAST' }, createdAt: 'DESC', id: 'ASC' },
  'score-asc': { overallScore: { direction: 'ASC', nulls: 'FIRST' }, createdAt: 'ASC', id: 'DESC' },
};

/** LIKE's wildcards in user text are literal characters. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** What the analysis worker reads of a preview. */
export type PreviewInput = Pick<PreviewEntity, 'id' | 'accountId' | 'format' | 'clients' | 'source' | 'files' | 'mjmlValidation' | 'status'>;

/** Where a column's ciphertext belongs: its AAD (envelope.ts). */
function sealed(row: { id: string; accountId: string | null }, column: 'source' | 'files' | 'result' | 'gate_summary' | 'rendered_reports'): SealContext {
  return { table: 'previews', column, rowId: row.id, accountId: row.accountId };
}

/** An html preview's source, or a compiled format's stored result, as a gate's suggested fix reads them (null: the other). */
export interface PreviewEmailToFix {
  id: string;
  accountId: string | null;
  format: PreviewEntity['format'];
  status: PreviewEntity['status'];
  source: string | null;
  result: Buffer | null;
}

export interface PreviewListItem {
  id: string;
  title: string | null;
  overallScore: number | null;
  status: PreviewEntity['status'];
  createdAt: string;
}

@Injectable()
export class PreviewRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly screenshots: ScreenshotRepository,
    private readonly cipher: RowCipher,
  ) {}

  private get repo() {
    return this.dataSource.getRepository(PreviewEntity);
  }

  /*
   * source, files, result and gate_summary are encrypted (RowCipher, docs/privacy.md): sealed here before they are
   * written, opened here after they are read, so callers see plaintext.
   *
   * The statements every preview runs (create, find, findForAnalysis, storeOutcome) are prepared statements
   * (preparedQuery), written out here rather than built by TypeORM on each call: values go through pgSafe
   * as the entity's transformers would, and rows come back under the entity's property names.
   */

  async create(preview: NewPreview): Promise<CreatedPreview> {
    const { retain = true, ...fields } = preview;
    const entity = this.repo.create({
      ...fields,
      files: preview.files ?? null,
      mjmlValidation: preview.mjmlValidation ?? null,
      id: opaqueId('prv'),
      status: 'queued',
      result: null,
      failure: null,
      gateSummary: null,
      overallScore: null,
      screenshots: null,
      renderedReports: null,
      completedAt: null,
    });
    const { rows } = await preparedQuery<{ createdAt: Date; retain: boolean }>(
      this.dataSource,
      'previews.create',
      `INSERT INTO previews (id, account_id, title, format, clients, source, files, mjml_validation, status, expires_at, retain)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, ${retainOnInsert('$10', '$2')}) RETURNING created_at AS "createdAt", retain`,
      [
        pgSafe(entity.id),
        entity.accountId,
        pgSafe(entity.title),
        pgSafe(entity.format),
        pgSafe(entity.clients),
        await this.cipher.sealText(sealed(entity, 'source'), pgSafe(entity.source)),
        entity.files === null ? null : await this.cipher.sealJson(sealed(entity, 'files'), pgSafe(entity.files)),
        pgSafe(entity.mjmlValidation),
        entity.expiresAt,
        retain,
      ],
    );
    entity.createdAt = rows[0].createdAt;
    return Object.assign(entity, { retain: rows[0].retain });
  }

  /**
   * The preview without its (large) source. Unknown and malformed ids are null, and so are anonymous
   * previews past their 24 hours: the cleanup job deletes them only every few minutes, and until then
   * they must neither be read nor shared.
   */
  async find(id: string, now = new Date()): Promise<PreviewEntity | null> {
    if (!OPAQUE_ID_PATTERN.test(id) || !id.startsWith('prv_')) return null;
    const { rows } = await preparedQuery<PreviewEntity>(
      this.dataSource,
      'previews.find',
      `SELECT id, account_id AS "accountId", title, format, clients, status, result, failure, overall_score AS "overallScore", screenshots,
              rendered_reports AS "renderedReports", created_at AS "createdAt", completed_at AS "completedAt", expires_at AS "expiresAt"
       FROM previews WHERE id = $1`,
      [id],
    );
    const preview = rows[0] ? Object.assign(new PreviewEntity(), rows[0]) : null;
    if (!preview || (preview.expiresAt !== null && preview.expiresAt <= now)) return null;
    if (preview.result) preview.result = await this.cipher.openBytes(sealed(preview, 'result'), preview.result);
    if (preview.renderedReports) preview.renderedReports = await this.cipher.openJson(sealed(preview, 'rendered_reports'), preview.renderedReports);
    return preview;
  }

  /** What the render worker needs: the source, the stored result (for compiled formats' HTML) and the clients. */
  async findForRender(id: string): Promise<Pick<PreviewEntity, 'id' | 'accountId' | 'format' | 'clients' | 'source' | 'status' | 'result'> | null> {
    const preview = await this.repo.findOne({
      where: { id },
      select: { id: true, accountId: true, format: true, clients: true, source: true, status: true, result: true },
    });
    if (!preview) return null;
    preview.source = await this.cipher.openText(sealed(preview, 'source'), preview.source);
    if (preview.result) preview.result = await this.cipher.openBytes(sealed(preview, 'result'), preview.result);
    return preview;
  }

  /**
   * The email a failed gate verdict's suggested fix starts from (docs/gate.md, "Suggested fix"): an html
   * preview's source, or a compiled format's stored result (its compiled HTML is inside). Only the column the
   * format needs is read and opened: the follow-up runs for every failed verdict, and an html preview's result
   * (~17 KB sealed) is of no use to it.
   */
  async findEmailToFix(id: string): Promise<PreviewEmailToFix | null> {
    const { rows } = await preparedQuery<PreviewEmailToFix>(
      this.dataSource,
      'previews.findEmailToFix',
      `SELECT id, account_id AS "accountId", format, status, CASE WHEN format = 'html' THEN source END AS source,
              CASE WHEN format <> 'html' THEN result END AS result
         FROM previews WHERE id = $1`,
      [pgSafe(id)],
    );
    const preview = rows[0];
    if (!preview) return null;
    if (preview.source !== null) preview.source = await this.cipher.openText(sealed(preview, 'source'), preview.source);
    if (preview.result !== null) preview.result = await this.cipher.openBytes(sealed(preview, 'result'), preview.result);
    return preview;
  }

  /** What the worker needs: the source, whether a result exists already, and the account (storeOutcome seals the result with its key). */
  async findForAnalysis(id: string): Promise<PreviewInput | null> {
    const { rows } = await preparedQuery<PreviewInput>(
      this.dataSource,
      'previews.findForAnalysis',
      'SELECT id, account_id AS "accountId", format, clients, source, files, mjml_validation AS "mjmlValidation", status FROM previews WHERE id = $1',
      [pgSafe(id)],
    );
    const preview = rows[0];
    if (!preview) return null;
    preview.source = await this.cipher.openText(sealed(preview, 'source'), preview.source);
    if (preview.files) preview.files = await this.cipher.openJson(sealed(preview, 'files'), preview.files);
    return preview;
  }

  /**
   * Stores the outcome once (`storedResult`: the response as `encodePreviewResult` made it, in the
   * analysis thread): only a queued preview changes. A duplicate delivery of the same job
   * (BullMQ is at-least-once) finds it done and leaves the first result in place. `accountId` is the
   * preview's (findForAnalysis): the result is sealed with its key, and a preview of another account is not changed.
   */
  async storeOutcome(
    id: string,
    outcome:
      { storedResult: Buffer; overallScore: number; gateSummary?: string; accountId: string | null } | { failure: NonNullable<PreviewEntity['failure']> },
  ): Promise<boolean> {
    const { rowCount } =
      'storedResult' in outcome
        ? await preparedQuery(
            this.dataSource,
            'previews.storeResult',
            `UPDATE previews SET status = 'completed', result = $2, overall_score = $3, gate_summary = $4, completed_at = $5
             WHERE id = $1 AND status = 'queued' AND account_id IS NOT DISTINCT FROM $6`,
            [
              pgSafe(id),
              await this.cipher.sealBytes(sealed({ id, accountId: outcome.accountId }, 'result'), outcome.storedResult),
              outcome.overallScore,
              outcome.gateSummary === undefined
                ? null
                : await this.cipher.sealText(sealed({ id, accountId: outcome.accountId }, 'gate_summary'), pgSafe(outcome.gateSummary)),
              new Date(),
              outcome.accountId,
            ],
          )
        : await preparedQuery(
            this.dataSource,
            'previews.storeFailure',
            `UPDATE previews SET status = 'failed', failure = $2, completed_at = $3 WHERE id = $1 AND status = 'queued'`,
            [pgSafe(id), JSON.stringify(pgSafe(outcome.failure)), new Date()],
          );
    return (rowCount ?? 0) > 0;
  }

  /** The email a gate run imported from its URL, for a preview of the run's account still waiting for it (a redelivery changes nothing). */
  async fillSource(id: string, source: string, accountId: string): Promise<boolean> {
    const stored = await this.cipher.sealText({ table: 'previews', column: 'source', rowId: id, accountId }, pgSafe(source));
    const result = await this.repo.update({ id, accountId, status: 'queued', source: '' } as FindOptionsWhere<PreviewEntity>, { source: stored });
    return (result.affected ?? 0) > 0;
  }

  /** What a gate run reads of its preview: the outcome and the gate's summary (never the large result or source). */
  async findGateSummary(id: string): Promise<Pick<PreviewEntity, 'id' | 'accountId' | 'status' | 'failure' | 'gateSummary'> | null> {
    const preview = await this.repo.findOne({ where: { id }, select: { id: true, accountId: true, status: true, failure: true, gateSummary: true } });
    if (preview?.gateSummary) preview.gateSummary = await this.cipher.openText(sealed(preview, 'gate_summary'), preview.gateSummary);
    return preview;
  }

  async listForAccount(
    accountId: string,
    page: number,
    pageSize: number,
    options: PreviewListOptions = {},
  ): Promise<{ items: PreviewListItem[]; total: number }> {
    const title = options.titleContains?.trim();
    const pattern = title ? `%${likeLiteral(title)}%` : null;
    const [rows, [{ total }]] = await Promise.all([
      this.repo.find({
        where: pattern ? { accountId, title: ILike(pattern) } : { accountId },
        select: { id: true, title: true, overallScore: true, status: true, createdAt: true },
        order: ORDERS[options.sort ?? 'date-desc'],
        skip: (page - 1) * pageSize,
        take: pageSize,
      }),
      // count(*), not the ORM's count(DISTINCT id): six times cheaper over 10,000 previews.
      this.dataSource.query(
        pattern
          ? 'SELECT count(*)::int AS total FROM previews WHERE account_id = $1 AND title ILIKE $2'
          : 'SELECT count(*)::int AS total FROM previews WHERE account_id = $1',
        pattern ? [accountId, pattern] : [accountId],
      ) as Promise<Array<{ total: number }>>,
    ]);
    return {
      total,
      items: rows.map((r) => ({ id: r.id, title: r.title, overallScore: r.overallScore, status: r.status, createdAt: r.createdAt.toISOString() })),
    };
  }

  /** Deletes one of the account's previews (and its shares and screenshots); false when there is none. */
  async deleteForAccount(accountId: string, id: string): Promise<boolean> {
    if (!OPAQUE_ID_PATTERN.test(id)) return false;
    const hashes = await this.screenshots.hashesOf([id]);
    const result = await this.repo.delete({ id, accountId });
    const deleted = (result.affected ?? 0) > 0;
    // PNGs no other preview shows go with it (content-addressed: another preview may show the same one).
    if (deleted) await this.screenshots.deleteUnreferenced(hashes);
    return deleted;
  }

  /**
   * Deletes a preview whose job could not be enqueued (the client was told to retry), unless a worker
   * already analyzed it: its job may still reach the queue late, and then finds nothing to do.
   */
  async withdraw(id: string): Promise<void> {
    await this.repo.delete({ id, status: 'queued' } as FindOptionsWhere<PreviewEntity>);
  }

  /** Deletes anonymous previews whose time is up, and the screenshots no preview shows any more. */
  async deleteExpired(now = new Date()): Promise<number> {
    const result: [unknown, number] = await this.dataSource.query('DELETE FROM previews WHERE expires_at IS NOT NULL AND expires_at <= $1', [now]);
    await this.screenshots.deleteUnreferenced();
    return result[1];
  }
}
