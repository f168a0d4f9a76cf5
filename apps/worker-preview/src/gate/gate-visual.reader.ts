import { Injectable, Logger } from '@nestjs/common';
import { PNG } from 'pngjs';
import type { GateVisualSnapshot, StoredRenderedReports } from '@mailproof/contracts';
import { isClientId, referenceFingerprint, type ReferenceFingerprint, type VisualDivergenceMap, type VisualReferenceKey } from '@mailproof/engine';
import { PreviewRepository, ScreenshotRepository } from '@mailproof/persistence';

/** A screenshot's URL ends in its image's name: `/screenshots/<hash>.png`. */
const SHOT_HASH = /\/screenshots\/([0-9a-f]{64})\.png$/;

/** worker-render's reference screenshots: `reference-<viewport>-<scheme>` (contracts' `referenceShotId`). */
const REFERENCE_SHOT = /^reference-(wide|mobile)-(light|dark)$/;
/** Device pixels per CSS pixel each viewport is painted at (libs/render's viewports: wide 800 px at 1, mobile 390 px at 2). */
const SCALE = { wide: 1, mobile: 2 } as const;

/** The reference renderings among a preview's screenshots, by viewport and scheme, with the scale each was painted at. */
export function referenceShots(screenshots: Record<string, string> | null): Partial<Record<VisualReferenceKey, { url: string; scale: number }>> {
  const found: Partial<Record<VisualReferenceKey, { url: string; scale: number }>> = {};
  for (const [id, url] of Object.entries(screenshots ?? {})) {
    const match = REFERENCE_SHOT.exec(id);
    if (match) found[`${match[1] as 'wide' | 'mobile'}-${match[2] as 'light' | 'dark'}`] = { url, scale: SCALE[match[1] as 'wide' | 'mobile'] };
  }
  return found;
}

/** The divergence worker-render stored for the checked clients (ids it does not know are left out). */
export function divergenceOf(reports: StoredRenderedReports | null, clients: readonly string[]): VisualDivergenceMap {
  const all = reports?.visualReport?.divergence ?? {};
  const kept: VisualDivergenceMap = {};
  for (const clientId of clients) {
    const entry = isClientId(clientId) ? all[clientId] : undefined;
    if (entry) kept[clientId] = entry;
  }
  return kept;
}

/**
 * What the gate's visual check measured of a run's email (docs/gate.md, "The visual check"): the divergence
 * per client and scheme that worker-render stored with the screenshots, and the fingerprint of each reference
 * rendering (viewport and scheme), computed here from its stored PNG. Null when the email was not painted.
 */
@Injectable()
export class GateVisualReader {
  private readonly logger = new Logger('GateVisual');

  constructor(
    private readonly previews: PreviewRepository,
    private readonly screenshots: ScreenshotRepository,
  ) {}

  async read(previewId: string, clients: readonly string[]): Promise<GateVisualSnapshot | null> {
    const preview = await this.previews.find(previewId);
    if (!preview) return null;
    const divergence = divergenceOf(preview.renderedReports, clients);
    if (Object.keys(divergence).length === 0) return null;
    const reference: Partial<Record<VisualReferenceKey, ReferenceFingerprint>> = {};
    for (const [key, shot] of Object.entries(referenceShots(preview.screenshots)) as Array<[VisualReferenceKey, { url: string; scale: number }]>) {
      const print = await this.fingerprint(shot.url, shot.scale);
      if (print) reference[key] = print;
    }
    return { version: 1, divergence, reference };
  }

  private async fingerprint(url: string, scale: number): Promise<ReferenceFingerprint | null> {
    const hash = SHOT_HASH.exec(url)?.[1];
    const png = hash ? await this.screenshots.getImage(hash) : null;
    if (!png) return null;
    try {
      const image = PNG.sync.read(png);
      return referenceFingerprint({ width: image.width, height: image.height, data: image.data }, scale);
    } catch (error) {
      this.logger.warn(`reference screenshot ${hash} could not be read: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }
}
