import { Injectable, Logger } from '@nestjs/common';
import { PNG } from 'pngjs';
import type { GateVisualSnapshot, StoredRenderedReports } from '@mailproof/contracts';
import { isClientId, referenceFingerprint, VISUAL_SCHEMES, type ReferenceFingerprint, type VisualDivergenceMap, type VisualScheme } from '@mailproof/engine';
import { PreviewRepository, ScreenshotRepository } from '@mailproof/persistence';

/** A screenshot's URL ends in its image's name: `/screenshots/<hash>.png`. */
const SHOT_HASH = /\/screenshots\/([0-9a-f]{64})\.png$/;

/**
 * The reference rendering's screenshot per scheme among a preview's shots: the wide (800 px) reference
 * when worker-render painted one (`reference-light`, or `reference-wide-light` beside a mobile one), else any
 * reference of the scheme. The wide one is painted at device scale 1, a mobile one at 2.
 */
export function referenceShots(screenshots: Record<string, string> | null): Partial<Record<VisualScheme, { url: string; scale: number }>> {
  const found: Partial<Record<VisualScheme, { url: string; scale: number }>> = {};
  const ids = Object.keys(screenshots ?? {}).filter((id) => id.startsWith('reference'));
  for (const scheme of VISUAL_SCHEMES) {
    const ofScheme = ids.filter((id) => id.endsWith(`-${scheme}`));
    const wide = ofScheme.find((id) => id === `reference-${scheme}` || id.includes('wide'));
    const id = wide ?? ofScheme.sort()[0];
    if (id) found[scheme] = { url: screenshots![id], scale: wide ? 1 : 2 };
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
 * per client and scheme that worker-render stored with the screenshots, and the fingerprint of each scheme's
 * reference rendering, computed here from its stored PNG. Null when the email was not painted.
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
    const reference: Partial<Record<VisualScheme, ReferenceFingerprint>> = {};
    for (const [scheme, shot] of Object.entries(referenceShots(preview.screenshots)) as Array<[VisualScheme, { url: string; scale: number }]>) {
      const print = await this.fingerprint(shot.url, shot.scale);
      if (print) reference[scheme] = print;
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
