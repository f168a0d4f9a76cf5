import type { ClientId, ClientRenderView, CssFinding } from '@mailproof/engine';
import type { EmailImageLoader } from './image-loader';
import { PaintError, type PaintedPage, type PaintedShots, type RenderPool } from './render-pool';
import type { RenderedReports } from '@mailproof/contracts';
import { mobileContrast, overflowReport, visualReport } from './rendered-reports';
import { planRenders, referenceShotId, viewportOf, type ReferenceShotId, type RenderUnit, type ScreenshotMode, type ShotId } from './shot-plan';
import { PageComparisons, visualDivergence, type PaintedReferences } from './visual-divergence';
import { schemeDependence } from './scheme-dependence';

export interface RenderEmailResult {
  /** The distinct pages planned: each painted (or tried) once, a dark page its light twin stands for not at all (lightTwins). */
  units: RenderUnit[];
  /** Every screenshot that was captured, with the page it came from. */
  painted: PaintedShots;
  /** The reference renderings painted (when the author's markup was given), by `reference-<viewport>-<mode>`. */
  references: PaintedReferences;
  failed: Array<{ id: ShotId | ReferenceShotId; reason: string }>;
  /** Things a reader of the screenshots should know: cut pages, images that stayed broken. */
  notes: string[];
  /** With a reference: the page comparisons made while the browsers painted (renderedReports finishes them). */
  comparisons?: PageComparisons;
}

/**
 * Compares each client page with its reference as soon as both are painted, one pair per turn of the
 * event loop, while the browsers paint the others: the divergence costs little wall time beyond the paint.
 */
class EarlyComparisons {
  readonly comparisons = new PageComparisons();
  private readonly done = new Map<string, PaintedPage>();
  private readonly queue: Array<() => void> = [];
  private running: Promise<void> | null = null;

  painted(unit: RenderUnit, page: PaintedPage, units: readonly RenderUnit[]): void {
    this.done.set(unit.key, page);
    const referenceOf = (viewport: string, mode: ScreenshotMode) =>
      units.find((other) => other.references.some((ref) => ref.viewport === viewport && ref.mode === mode));
    for (const shot of unit.shots) {
      const reference = referenceOf(viewportOf(shot.client), shot.mode);
      const referencePage = reference && this.done.get(reference.key);
      if (reference && referencePage) this.enqueue({ unit, page }, { unit: reference, page: referencePage });
    }
    for (const ref of unit.references) {
      for (const other of units) {
        const otherPage = this.done.get(other.key);
        if (otherPage && other.shots.some((shot) => shot.mode === ref.mode && referenceShotId(viewportOf(shot.client), shot.mode) === ref.id))
          this.enqueue({ unit: other, page: otherPage }, { unit, page });
      }
    }
  }

  /**
   * Whether a page just captured needs its elements measured: not when every screenshot it stands for
   * has its reference painted already with the very same PNG (a divergence of 0, no region to describe).
   */
  needsElements(standsFor: readonly RenderUnit[], png: Buffer, units: readonly RenderUnit[]): boolean {
    if (standsFor.some((unit) => unit.references.length > 0)) return true;
    return standsFor.some((unit) => this.anyShotDiffers(unit, png, units));
  }

  private anyShotDiffers(unit: RenderUnit, png: Buffer, units: readonly RenderUnit[]): boolean {
    return unit.shots.some((shot) => {
      const reference = units.find((other) => other.references.some((ref) => ref.viewport === viewportOf(shot.client) && ref.mode === shot.mode));
      const referencePage = reference && this.done.get(reference.key);
      return !referencePage || !referencePage.png.equals(png);
    });
  }

  private enqueue(client: { unit: RenderUnit; page: PaintedPage }, reference: { unit: RenderUnit; page: PaintedPage }): void {
    this.queue.push(() => void this.comparisons.compare(client, reference));
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.queue.shift()!();
    }
    this.running = null;
  }

  async finished(): Promise<PageComparisons> {
    while (this.running) await this.running;
    return this.comparisons;
  }
}

/**
 * Paints the requested clients and modes: the distinct pages behind them once each (many clients share
 * markup), as many at a time as the pool has browsers. A page that fails fails only its own screenshots.
 * `reference` (renderEmailViews' author markup) adds the reference rendering of every viewport and scheme
 * painted, and every page is then measured element by element for the visual divergence.
 */
export async function renderEmail(
  pool: RenderPool,
  views: readonly ClientRenderView[],
  modes: readonly ScreenshotMode[],
  images: EmailImageLoader,
  reference?: string,
): Promise<RenderEmailResult> {
  const units = planRenders(views, modes, reference);
  const early = reference === undefined ? null : new EarlyComparisons();
  const twins = lightTwins(units);
  const reusing = new Map<RenderUnit, RenderUnit[]>();
  for (const [dark, light] of twins) reusing.set(light, [...(reusing.get(light) ?? []), dark]);
  const onPainted = (unit: RenderUnit) => (page: PaintedPage) => {
    early?.painted(unit, page, units);
    return page;
  };
  // A light page measures its elements for the dark pages that may take it too.
  const paint = (unit: RenderUnit) =>
    pool.paint(unit, images, early ? (png) => early.needsElements([unit, ...(reusing.get(unit) ?? [])], png, units) : undefined).then(onPainted(unit));
  // The references first: comparisons start with the first client page, and a client page that paints
  // its reference's very picture is not measured element by element. A dark page with a light twin waits
  // for it and takes its page when no image served to it could follow the scheme; else it is painted.
  const paintings = new Map<RenderUnit, Promise<PaintedPage>>();
  for (const unit of [...units.filter((unit) => unit.references.length > 0), ...units.filter((unit) => unit.references.length === 0)])
    if (!twins.has(unit)) paintings.set(unit, paint(unit));
  for (const [dark, light] of twins)
    paintings.set(
      dark,
      paintings.get(light)!.then(
        (page) => (page.rasterImagesOnly ? onPainted(dark)(page) : paint(dark)),
        () => paint(dark),
      ),
    );
  const outcomes = await Promise.allSettled(units.map((unit) => paintings.get(unit)!));
  const painted: PaintedShots = new Map();
  const references: PaintedReferences = new Map();
  const failed: RenderEmailResult['failed'] = [];
  let truncated = 0;
  outcomes.forEach((outcome, index) => {
    const unit = units[index];
    if (outcome.status === 'fulfilled') {
      if (outcome.value.truncated) truncated += unit.shots.length;
      for (const shot of unit.shots) painted.set(shot.id, { unit, page: outcome.value });
      for (const shot of unit.references) references.set(shot.id, { unit, page: outcome.value });
    } else {
      const reason = outcome.reason instanceof PaintError ? outcome.reason.reason : 'the page could not be painted';
      if (process.env.MAILPROOF_RENDER_DEBUG) process.stderr.write(`paint failed: ${String(outcome.reason?.message ?? outcome.reason)}\n`);
      for (const shot of unit.shots) failed.push({ id: shot.id, reason });
      for (const shot of unit.references) failed.push({ id: shot.id, reason });
    }
  });
  const notes: string[] = [];
  if (truncated > 0) notes.push(`${truncated} screenshot(s) stop at the height limit; the email is longer.`);
  if (images.failures.size > 0)
    notes.push(`${images.failures.size} image(s) could not be loaded and show as broken (${[...new Set(images.failures.values())].join(', ')}).`);
  return { units, painted, references, failed, notes, ...(early ? { comparisons: await early.finished() } : {}) };
}

/**
 * The dark-scheme pages whose light-scheme twin (the same markup in the same viewport) is planned too and
 * whose markup has no scheme dependence (schemeDependence: no `prefers-color-scheme`, `color-scheme`,
 * `light-dark()`, SVG, or `data:` URL other than a raster image or font, in any encoding): Chromium paints
 * them the same picture under either scheme, so the light page stands for both (the dark reference of an
 * email without dark rules; a client that applies the email's dark rules, for an email that has none).
 */
function lightTwins(units: readonly RenderUnit[]): Map<RenderUnit, RenderUnit> {
  const light = new Map<string, RenderUnit>();
  for (const unit of units) if (unit.colorScheme === 'light') light.set(`${unit.viewport}\n${unit.html}`, unit);
  const twins = new Map<RenderUnit, RenderUnit>();
  for (const unit of units) {
    if (unit.colorScheme !== 'dark') continue;
    const twin = light.get(`${unit.viewport}\n${unit.html}`);
    if (twin && schemeDependence(unit.html) === null) twins.set(unit, twin);
  }
  return twins;
}

/** What the divergence can say beyond the pixels: the email's findings (a cause names the behaviour). */
export interface DivergenceInputs {
  references: PaintedReferences;
  /** The preview's `cssReport` (lines in the analyzed HTML: `compiledLine` for compiled formats). */
  findings?: readonly CssFinding[];
  /** renderEmail's comparisons (made while painting); without them, they are made here. */
  comparisons?: PageComparisons;
}

/**
 * The three reports measured in the rendered pages; null where no screenshot feeds them. With the
 * reference renderings, `visualReport.divergence` holds each client and scheme against them.
 */
export function renderedReports(
  painted: PaintedShots,
  clients: readonly ClientId[],
  modes: readonly ScreenshotMode[],
  divergenceInputs?: DivergenceInputs,
): RenderedReports {
  const comparisons = divergenceInputs?.comparisons ?? new PageComparisons();
  const divergence =
    divergenceInputs && divergenceInputs.references.size > 0
      ? visualDivergence(painted, divergenceInputs.references, clients, modes, divergenceInputs.findings, comparisons)
      : null;
  let visual = modes.includes('light') ? visualReport(painted, clients, comparisons.decoded, comparisons) : null;
  if (divergence && Object.keys(divergence).length > 0) visual = { ...(visual ?? { references: { wide: null, mobile: null }, clients: [] }), divergence };
  return {
    overflowReport: overflowReport(painted, clients),
    mobileContrast: mobileContrast(painted, clients, modes),
    visualReport: visual,
  };
}

export type { PaintedPage };
