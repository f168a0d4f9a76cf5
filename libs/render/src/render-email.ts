import type { ClientId, ClientRenderView } from '@mailproof/engine';
import type { EmailImageLoader } from './image-loader';
import { PaintError, type PaintedPage, type RenderPool } from './render-pool';
import type { RenderedReports } from '@mailproof/contracts';
import { mobileContrast, overflowReport, visualReport, type PaintedShots } from './rendered-reports';
import { planRenders, type RenderUnit, type ScreenshotMode, type ShotId } from './shot-plan';

export interface RenderEmailResult {
  /** The distinct pages painted (or tried). */
  units: RenderUnit[];
  /** Every screenshot that was captured, with the page it came from. */
  painted: PaintedShots;
  failed: Array<{ id: ShotId; reason: string }>;
  /** Things a reader of the screenshots should know: cut pages, images that stayed broken. */
  notes: string[];
}

/**
 * Paints the requested clients and modes: the distinct pages behind them once each (many clients share
 * markup), as many at a time as the pool has browsers. A page that fails fails only its own screenshots.
 */
export async function renderEmail(
  pool: RenderPool,
  views: readonly ClientRenderView[],
  modes: readonly ScreenshotMode[],
  images: EmailImageLoader,
): Promise<RenderEmailResult> {
  const units = planRenders(views, modes);
  const outcomes = await Promise.allSettled(units.map((unit) => pool.paint(unit, images)));
  const painted: PaintedShots = new Map();
  const failed: RenderEmailResult['failed'] = [];
  let truncated = 0;
  outcomes.forEach((outcome, index) => {
    const unit = units[index];
    if (outcome.status === 'fulfilled') {
      if (outcome.value.truncated) truncated += unit.shots.length;
      for (const shot of unit.shots) painted.set(shot.id, { unit, page: outcome.value });
    } else {
      const reason = outcome.reason instanceof PaintError ? outcome.reason.reason : 'the page could not be painted';
      if (process.env.MAILPROOF_RENDER_DEBUG) process.stderr.write(`paint failed: ${String(outcome.reason?.message ?? outcome.reason)}\n`);
      for (const shot of unit.shots) failed.push({ id: shot.id, reason });
    }
  });
  const notes: string[] = [];
  if (truncated > 0) notes.push(`${truncated} screenshot(s) stop at the height limit; the email is longer.`);
  if (images.failures.size > 0)
    notes.push(`${images.failures.size} image(s) could not be loaded and show as broken (${[...new Set(images.failures.values())].join(', ')}).`);
  return { units, painted, failed, notes };
}

/** The three reports measured in the rendered pages; null where no screenshot feeds them. */
export function renderedReports(painted: PaintedShots, clients: readonly ClientId[], modes: readonly ScreenshotMode[]): RenderedReports {
  return {
    overflowReport: overflowReport(painted, clients),
    mobileContrast: mobileContrast(painted, clients, modes),
    visualReport: modes.includes('light') ? visualReport(painted, clients) : null,
  };
}

export type { PaintedPage };
