import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StoredFailure } from '@mailproof/contracts';
import { FixRunEntity } from '../entities/fix-run.entity';
import type { SealContext } from '../encryption/envelope';
import { RowCipher } from '../encryption/row-cipher';
import { pgSafe } from '../pg-safe-text';
import { preparedQuery } from '../prepared-query';
import { OPAQUE_ID_PATTERN, opaqueId } from '../random-id';
import { retainOnInsert } from './preview.repository';

export interface NewFixRun {
  accountId: string | null;
  format: FixRunEntity['format'];
  clients: string[];
  tiers: string[];
  source: string;
  files?: Record<string, string> | null;
  mjmlValidation?: 'soft' | 'strict' | null;
  expiresAt: Date;
  /** false: the request said retain: false (the run goes once it is done). Default true. */
  retain?: boolean;
}

/** What the worker reads of a run: the input and whether it has an outcome already. */
export type FixRunInput = Pick<FixRunEntity, 'id' | 'accountId' | 'format' | 'clients' | 'tiers' | 'source' | 'files' | 'mjmlValidation' | 'status'>;

/** A run as the API reads it: everything but the source. */
export type StoredFixRun = Omit<FixRunEntity, 'source' | 'files' | 'mjmlValidation'>;

/** Where a column's ciphertext belongs: its AAD (envelope.ts). */
function sealed(row: { id: string; accountId: string | null }, column: 'source' | 'files' | 'result'): SealContext {
  return { table: 'fix_runs', column, rowId: row.id, accountId: row.accountId };
}

/**
 * Fix runs (POST /api/fix). Like previews, the statements every request runs are prepared statements
 * written out here: values go through pgSafe as the entity's transformers would. source, files and result are
 * encrypted (RowCipher, docs/privacy.md): sealed before they are written, opened after they are read.
 */
@Injectable()
export class FixRunRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: RowCipher,
  ) {}

  /** The new run, with whether it is kept past its job (false for retain: false or an account keeping 0 days). */
  async create(run: NewFixRun): Promise<StoredFixRun & { retain: boolean }> {
    const id = opaqueId('fix');
    const files = run.files ?? null;
    const { rows } = await preparedQuery<{ createdAt: Date; retain: boolean }>(
      this.dataSource,
      'fixRuns.create',
      `INSERT INTO fix_runs (id, account_id, format, clients, tiers, source, files, mjml_validation, status, expires_at, retain)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, ${retainOnInsert('$10', '$2')}) RETURNING created_at AS "createdAt", retain`,
      [
        id,
        run.accountId,
        pgSafe(run.format),
        pgSafe(run.clients),
        pgSafe(run.tiers),
        await this.cipher.sealText(sealed({ id, accountId: run.accountId }, 'source'), pgSafe(run.source)),
        files === null ? null : await this.cipher.sealJson(sealed({ id, accountId: run.accountId }, 'files'), pgSafe(files)),
        pgSafe(run.mjmlValidation ?? null),
        run.expiresAt,
        run.retain ?? true,
      ],
    );
    return Object.assign(new FixRunEntity(), {
      id,
      accountId: run.accountId,
      format: run.format,
      clients: run.clients,
      tiers: run.tiers,
      status: 'queued',
      result: null,
      failure: null,
      createdAt: rows[0].createdAt,
      completedAt: null,
      expiresAt: run.expiresAt,
      retain: rows[0].retain,
    });
  }

  /** The run without its source; unknown and malformed ids are null, and so are runs past their time (the sweep deletes them later). */
  async find(id: string, now = new Date()): Promise<StoredFixRun | null> {
    if (!OPAQUE_ID_PATTERN.test(id) || !id.startsWith('fix_')) return null;
    const { rows } = await preparedQuery<StoredFixRun>(
      this.dataSource,
      'fixRuns.find',
      `SELECT id, account_id AS "accountId", format, clients, tiers, status, result, failure, created_at AS "createdAt",
              completed_at AS "completedAt", expires_at AS "expiresAt"
       FROM fix_runs WHERE id = $1`,
      [id],
    );
    const run = rows[0];
    if (!run || run.expiresAt <= now) return null;
    if (run.result) run.result = await this.cipher.openBytes(sealed(run, 'result'), run.result);
    return run;
  }

  /** What the worker needs: the input and whether an outcome exists already. */
  async findForRun(id: string): Promise<FixRunInput | null> {
    const { rows } = await preparedQuery<FixRunInput>(
      this.dataSource,
      'fixRuns.findForRun',
      'SELECT id, account_id AS "accountId", format, clients, tiers, source, files, mjml_validation AS "mjmlValidation", status FROM fix_runs WHERE id = $1',
      [pgSafe(id)],
    );
    const run = rows[0];
    if (!run) return null;
    run.source = await this.cipher.openText(sealed(run, 'source'), run.source);
    if (run.files) run.files = await this.cipher.openJson(sealed(run, 'files'), run.files);
    return run;
  }

  /**
   * Stores the outcome once: only a queued run changes, so a duplicate delivery of the job (BullMQ is
   * at-least-once) or a final failure after a stored outcome leaves the first outcome in place. `accountId` is
   * the run's (findForRun): the result is sealed with its key, and a run of another account is not changed.
   */
  async storeOutcome(id: string, outcome: { storedResult: Buffer; accountId: string | null } | { failure: StoredFailure }): Promise<boolean> {
    const { rowCount } =
      'storedResult' in outcome
        ? await preparedQuery(
            this.dataSource,
            'fixRuns.storeResult',
            `UPDATE fix_runs SET status = 'completed', result = $2, completed_at = $3 WHERE id = $1 AND status = 'queued' AND account_id IS NOT DISTINCT FROM $4`,
            [
              pgSafe(id),
              await this.cipher.sealBytes(sealed({ id, accountId: outcome.accountId }, 'result'), outcome.storedResult),
              new Date(),
              outcome.accountId,
            ],
          )
        : await preparedQuery(
            this.dataSource,
            'fixRuns.storeFailure',
            `UPDATE fix_runs SET status = 'failed', failure = $2, completed_at = $3 WHERE id = $1 AND status = 'queued'`,
            [pgSafe(id), JSON.stringify(pgSafe(outcome.failure)), new Date()],
          );
    return (rowCount ?? 0) > 0;
  }

  /** Deletes a run whose job could not be enqueued (the client was told to retry), unless a worker already ran it. */
  async withdraw(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM fix_runs WHERE id = $1 AND status = 'queued'`, [id]);
  }

  /** Deletes the runs whose time is up (the preview cleanup's sweep). */
  async deleteExpired(now = new Date()): Promise<number> {
    const result: [unknown, number] = await this.dataSource.query('DELETE FROM fix_runs WHERE expires_at <= $1', [now]);
    return result[1];
  }
}
