import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { StoredRenderedReports } from '@mailproof/contracts';
import { RowCipher } from '../encryption/row-cipher';
import type { SealContext } from '../encryption/envelope';
import { EncryptedContentGoneError } from '../encryption/encryption.errors';

/** What the keyed hash of a screenshot is derived for (RowCipher.keyedHash). */
export const SCREENSHOT_HASH_PURPOSE = 'screenshot-name';

/** Where a screenshot's sealed bytes belong (their AAD): the image, by name, and its owner. */
function imageContext(hash: string, accountId: string | null): SealContext {
  return { table: 'screenshot_images', column: 'png', rowId: hash, accountId };
}

/** One PNG by content: its keyed hash (hex, ScreenshotRepository.imageHash) is its name and its URL. */
export interface StoredImage {
  hash: string;
  png: Buffer;
  width: number;
  height: number;
}

/**
 * Where screenshots live. PostgreSQL by default (every replica reads it, no extra service); an object
 * store can take its place behind the same three calls.
 */
export interface ScreenshotStore {
  /** Stores images not stored yet (by hash), sealed with their owner's data key; called inside the transaction that references them. */
  putImages(images: readonly StoredImage[], accountId: string | null, manager?: EntityManager): Promise<void>;
  getImage(hash: string): Promise<Buffer | null>;
  /** Deletes the given images (all when omitted) that no preview references any more; returns how many. */
  deleteUnreferenced(hashes?: readonly string[]): Promise<number>;
}

export interface AttachedShot {
  shot: string;
  hash: string;
  truncated: boolean;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

@Injectable()
export class ScreenshotRepository implements ScreenshotStore {
  /**
   * The cipher seals the rendered reports (their contrast failures quote the email's text; docs/privacy.md). Apps
   * always get it; a repository made without one (an operator command that only deletes) refuses to attach a render.
   */
  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher?: RowCipher,
  ) {}

  /**
   * A screenshot's name: HMAC-SHA256 of its bytes under a key derived from its owner's data key (the account's, or the
   * day's anonymous key), so one owner's identical pictures are stored once and the name reveals nothing of the picture.
   */
  imageHash(accountId: string | null, png: Buffer): Promise<string> {
    return this.requireCipher().keyedHash(accountId, SCREENSHOT_HASH_PURPOSE, png);
  }

  async putImages(images: readonly StoredImage[], accountId: string | null, manager: EntityManager = this.dataSource.manager): Promise<void> {
    const cipher = this.requireCipher();
    for (const image of images) {
      await manager.query(
        `INSERT INTO screenshot_images (hash, png, bytes, width, height, account_id, sealed) VALUES ($1, $2, $3, $4, $5, $6, true) ON CONFLICT (hash) DO NOTHING`,
        [image.hash, await cipher.sealBytes(imageContext(image.hash, accountId), image.png), image.png.length, image.width, image.height, accountId],
      );
    }
  }

  /** The PNG, opened (images stored before sealing are read as they are); null when unknown or its data key was destroyed. */
  async getImage(hash: string): Promise<Buffer | null> {
    if (!SHA256_HEX.test(hash)) return null;
    const rows: Array<{ png: Buffer; account_id: string | null; sealed: boolean }> = await this.dataSource.query(
      'SELECT png, account_id, sealed FROM screenshot_images WHERE hash = $1',
      [hash],
    );
    if (!rows[0]) return null;
    if (!rows[0].sealed) return rows[0].png;
    try {
      return await this.requireCipher().openBytes(imageContext(hash, rows[0].account_id), rows[0].png);
    } catch (error) {
      // Its owner was erased (or a backup outlived the key): there is no picture any more.
      if (error instanceof EncryptedContentGoneError) return null;
      throw error;
    }
  }

  private requireCipher(): RowCipher {
    if (!this.cipher) throw new Error('ScreenshotRepository needs a RowCipher to seal or open screenshots');
    return this.cipher;
  }

  /**
   * Stores a render's images and points the preview at them, with the URL map and the reports merged in
   * one transaction: a reader sees all of a render or none of it. False when the preview is gone (deleted,
   * expired or its content removed while it was painted): then nothing is stored.
   */
  async attachToPreview(
    previewId: string,
    images: readonly StoredImage[],
    shots: readonly AttachedShot[],
    urls: Record<string, string>,
    mergeReports: (current: StoredRenderedReports | null) => StoredRenderedReports,
  ): Promise<boolean> {
    const cipher = this.requireCipher();
    return this.dataSource.transaction(async (manager) => {
      const rows: Array<{ rendered_reports: StoredRenderedReports | string | null; account_id: string | null }> = await manager.query(
        // A preview whose content was removed (retention) takes no screenshots: they would outlive its email.
        'SELECT rendered_reports, account_id FROM previews WHERE id = $1 AND content_removed_at IS NULL FOR UPDATE',
        [previewId],
      );
      if (rows.length === 0) return false;
      const context = { table: 'previews', column: 'rendered_reports', rowId: previewId, accountId: rows[0].account_id };
      const current = rows[0].rendered_reports === null ? null : await cipher.openJson<StoredRenderedReports>(context, rows[0].rendered_reports);
      await this.putImages(images, rows[0].account_id, manager);
      for (const shot of shots) {
        await manager.query(
          `INSERT INTO preview_screenshots (preview_id, shot, hash, truncated) VALUES ($1, $2, $3, $4)
           ON CONFLICT (preview_id, shot) DO UPDATE SET hash = EXCLUDED.hash, truncated = EXCLUDED.truncated, created_at = now()`,
          [previewId, shot.shot, shot.hash, shot.truncated],
        );
      }
      await manager.query(`UPDATE previews SET screenshots = COALESCE(screenshots, '{}'::jsonb) || $2::jsonb, rendered_reports = $3::jsonb WHERE id = $1`, [
        previewId,
        JSON.stringify(urls),
        await cipher.sealJson(context, mergeReports(current)),
      ]);
      return true;
    });
  }

  /** The images a preview shows (to delete the unreferenced ones once the preview is gone). */
  async hashesOf(previewIds: readonly string[]): Promise<string[]> {
    if (previewIds.length === 0) return [];
    const rows: Array<{ hash: string }> = await this.dataSource.query('SELECT DISTINCT hash FROM preview_screenshots WHERE preview_id = ANY($1)', [previewIds]);
    return rows.map((row) => row.hash);
  }

  async deleteUnreferenced(hashes?: readonly string[]): Promise<number> {
    if (hashes && hashes.length === 0) return 0;
    const unreferenced = 'NOT EXISTS (SELECT 1 FROM preview_screenshots s WHERE s.hash = screenshot_images.hash)';
    try {
      const result: [unknown, number] = hashes
        ? await this.dataSource.query(`DELETE FROM screenshot_images WHERE hash = ANY($1) AND ${unreferenced}`, [hashes])
        : await this.dataSource.query(`DELETE FROM screenshot_images WHERE ${unreferenced}`);
      return result[1];
    } catch (error) {
      // A render referencing one of these images committed meanwhile (foreign key): it is in use again.
      if ((error as { code?: string }).code === '23503') return 0;
      throw error;
    }
  }
}
