import { Injectable } from '@nestjs/common';
import { DataSource, type FindOptionsWhere } from 'typeorm';
import { PreviewEntity } from '../entities/preview.entity';
import { OPAQUE_ID_PATTERN, opaqueId } from '../random-id';

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
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(PreviewEntity);
  }

  async create(preview: NewPreview): Promise<PreviewEntity> {
    const entity = this.repo.create({ ...preview, files: preview.files ?? null, mjmlValidation: preview.mjmlValidation ?? null, id: opaqueId('prv'), status: 'queued', result: null, failure: null, gateSummary: null, overallScore: null, screenshots: null, completedAt: null });
    await this.repo.insert(entity);
    return entity;
  }

  /**
   * The preview without its (large) source. Unknown and malformed ids are null, and so are anonymous
   * previews past their 24 hours: the cleanup job deletes them only every few minutes, and until then
   * they must neither be read nor shared.
   */
  async find(id: string, now = new Date()): Promise<PreviewEntity | null> {
    if (!OPAQUE_ID_PATTERN.test(id) || !id.startsWith('prv_')) return null;
    const preview = await this.repo.findOne({
      where: { id },
      select: { id: true, accountId: true, title: true, format: true, clients: true, status: true, result: true, failure: true, overallScore: true, screenshots: true, createdAt: true, completedAt: true, expiresAt: true },
    });
    return preview && preview.expiresAt !== null && preview.expiresAt <= now ? null : preview;
  }

  /** What the worker needs: the source and whether a result exists already. */
  async findForAnalysis(id: string): Promise<Pick<PreviewEntity, 'id' | 'format' | 'clients' | 'source' | 'files' | 'mjmlValidation' | 'status'> | null> {
    return this.repo.findOne({ where: { id }, select: { id: true, format: true, clients: true, source: true, files: true, mjmlValidation: true, status: true } });
  }

  /**
   * Stores the outcome once (`storedResult`: the response as `encodePreviewResult` made it, in the
   * analysis thread): only a queued preview changes. A duplicate delivery of the same job
   * (BullMQ is at-least-once) finds it done and leaves the first result in place.
   */
  async storeOutcome(
    id: string,
    outcome: { storedResult: Buffer; overallScore: number; gateSummary?: string } | { failure: NonNullable<PreviewEntity['failure']> },
  ): Promise<boolean> {
    const values =
      'storedResult' in outcome
        ? { status: 'completed' as const, result: outcome.storedResult, overallScore: outcome.overallScore, gateSummary: outcome.gateSummary ?? null, completedAt: new Date() }
        : { status: 'failed' as const, failure: outcome.failure, completedAt: new Date() };
    const result = await this.repo.update({ id, status: 'queued' } as FindOptionsWhere<PreviewEntity>, values);
    return (result.affected ?? 0) > 0;
  }

  /** The email a gate run imported from its URL, for a preview still waiting for it (a redelivery changes nothing). */
  async fillSource(id: string, source: string): Promise<boolean> {
    const result = await this.repo.update({ id, status: 'queued', source: '' } as FindOptionsWhere<PreviewEntity>, { source });
    return (result.affected ?? 0) > 0;
  }

  /** What a gate run reads of its preview: the outcome and the gate's summary (never the large result or source). */
  async findGateSummary(id: string): Promise<Pick<PreviewEntity, 'id' | 'status' | 'failure' | 'gateSummary'> | null> {
    return this.repo.findOne({ where: { id }, select: { id: true, status: true, failure: true, gateSummary: true } });
  }

  async listForAccount(accountId: string, page: number, pageSize: number): Promise<{ items: PreviewListItem[]; total: number }> {
    const [rows, total] = await this.repo.findAndCount({
      where: { accountId },
      select: { id: true, title: true, overallScore: true, status: true, createdAt: true },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    return {
      total,
      items: rows.map((r) => ({ id: r.id, title: r.title, overallScore: r.overallScore, status: r.status, createdAt: r.createdAt.toISOString() })),
    };
  }

  /** Deletes one of the account's previews (and its shares); false when there is none. */
  async deleteForAccount(accountId: string, id: string): Promise<boolean> {
    if (!OPAQUE_ID_PATTERN.test(id)) return false;
    const result = await this.repo.delete({ id, accountId });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Deletes a preview whose job could not be enqueued (the client was told to retry), unless a worker
   * already analyzed it: its job may still reach the queue late, and then finds nothing to do.
   */
  async withdraw(id: string): Promise<void> {
    await this.repo.delete({ id, status: 'queued' } as FindOptionsWhere<PreviewEntity>);
  }

  /** Deletes anonymous previews whose time is up. */
  async deleteExpired(now = new Date()): Promise<number> {
    const result: [unknown, number] = await this.dataSource.query('DELETE FROM previews WHERE expires_at IS NOT NULL AND expires_at <= $1', [now]);
    return result[1];
  }
}
