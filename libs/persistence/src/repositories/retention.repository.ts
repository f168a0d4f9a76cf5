import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScreenshotRepository } from './screenshot.repository';

/** What one retention sweep removed. */
export interface RetentionSweepResult {
  /** Previews whose source, files, result, screenshots and shares went (the row, its scores and gate summary stay). */
  previewsPurged: number;
  fixRunsDeleted: number;
  webhookEventsDeleted: number;
  screenshotImagesDeleted: number;
}

/** A preview's content is due: its request said retain: false, or its account's retention has passed. */
const CONTENT_DUE = `p.content_removed_at IS NULL AND p.status <> 'queued'
  AND (p.retain = false OR (a.id IS NOT NULL AND p.created_at + a.retention_days * interval '1 day' <= $1))
  AND NOT EXISTS (SELECT 1 FROM gate_runs g WHERE g.preview_id = p.id AND g.status = 'running')`;

const BATCH = 500;

/**
 * Retention (docs/privacy.md): what an account keeps, and for how long. Removing a preview's content
 * keeps the row (id, title, status, overall score, the gate's summary: the findings and scores a gate
 * baseline or a dashboard list needs) and removes everything that carries the email: the source and its
 * files, the stored result (rendered markup per client), the screenshots, the rendered reports and the
 * shares. Fix runs and webhook events are removed whole.
 */
@Injectable()
export class RetentionRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly screenshots: ScreenshotRepository,
  ) {}

  /** Marks a new preview or fix run as not to be kept past its job chain (the request said retain: false). */
  async doNotRetain(table: 'previews' | 'fix_runs', id: string): Promise<void> {
    await this.dataSource.query(`UPDATE ${table} SET retain = false WHERE id = $1`, [id]);
  }

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
        `UPDATE previews SET source = '', files = NULL, result = NULL, screenshots = NULL, rendered_reports = NULL, content_removed_at = $2
         WHERE id = ANY($1) AND content_removed_at IS NULL`,
        [ids, now],
      );
      await manager.query('DELETE FROM preview_screenshots WHERE preview_id = ANY($1)', [ids]);
      await manager.query('DELETE FROM shares WHERE preview_id = ANY($1)', [ids]);
      return count;
    });
    await this.screenshots.deleteUnreferenced(hashes);
    return purged;
  }

  /** One sweep: everything past its time, in batches, until nothing is due. */
  async sweep(now = new Date()): Promise<RetentionSweepResult> {
    let previewsPurged = 0;
    for (;;) {
      const due: Array<{ id: string }> = await this.dataSource.query(
        `SELECT p.id FROM previews p LEFT JOIN accounts a ON a.id = p.account_id WHERE ${CONTENT_DUE} LIMIT ${BATCH}`,
        [now],
      );
      if (due.length === 0) break;
      previewsPurged += await this.purgePreviews(
        due.map((row) => row.id),
        now,
      );
      if (due.length < BATCH) break;
    }
    const [, fixRunsDeleted]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM fix_runs f WHERE f.status <> 'queued' AND (f.retain = false
         OR EXISTS (SELECT 1 FROM accounts a WHERE a.id = f.account_id AND f.created_at + a.retention_days * interval '1 day' <= $1))`,
      [now],
    );
    // An event goes with its delivery log once no delivery of it is still pending.
    const [, webhookEventsDeleted]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM webhook_events e USING accounts a WHERE a.id = e.account_id AND e.created_at + a.retention_days * interval '1 day' <= $1
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`,
      [now],
    );
    const screenshotImagesDeleted = await this.screenshots.deleteUnreferenced();
    return { previewsPurged, fixRunsDeleted, webhookEventsDeleted, screenshotImagesDeleted };
  }
}
