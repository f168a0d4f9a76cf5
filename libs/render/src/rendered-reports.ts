import pixelmatch from 'pixelmatch';
import { compositeOver, contrastRatio, displayedRatio, getClient, parseCssColor, WHITE, type ClientId, type Rgba } from '@mailproof/engine';
import type { ContrastFailure, MobileContrastReport, OverflowReport, StoredRenderedReports, VisualReport } from '@mailproof/contracts';
import type { PaintedPage, PaintedShots } from './render-pool';
import type { MeasuredText } from './page-measurements';
import type { RenderUnit, ScreenshotMode } from './shot-plan';
import { DecodedPages, rowRegions, type PageComparisons } from './visual-divergence';

/** The unit (distinct page) and its painting behind each client's screenshot of one mode. */

export function overflowReport(shots: PaintedShots, clients: readonly ClientId[]): OverflowReport | null {
  const entries = clients.flatMap((clientId) => {
    const shot = shots.get(`${clientId}-light`) ?? shots.get(`${clientId}-dark`);
    if (!shot) return [];
    const m = shot.page.measurements;
    const overflowPx = Math.max(0, Math.round(m.scrollWidth - m.viewportWidth));
    return [{ clientId, viewportWidth: m.viewportWidth, scrollWidth: m.scrollWidth, overflowPx, elements: overflowPx > 0 ? m.overflowing.slice(0, 5) : [] }];
  });
  if (entries.length === 0) return null;
  return { clients: entries, overflowing: entries.filter((e) => e.overflowPx > 0).map((e) => e.clientId) };
}

const AA_NORMAL = 4.5;
const AA_LARGE = 3;

function requiredRatio(text: MeasuredText): number {
  const large = text.fontSizePx >= 24 || (text.fontSizePx >= 18.66 && text.fontWeight >= 700);
  return large ? AA_LARGE : AA_NORMAL;
}

/** The opaque color behind a text: its backgrounds composited nearest-last over the canvas (white). */
function backgroundOf(text: MeasuredText, canvas: Rgba): Rgba {
  let color = canvas;
  for (let index = text.backgrounds.length - 1; index >= 0; index--) {
    const layer = parseCssColor(text.backgrounds[index]);
    if (layer) color = compositeOver(layer, color);
  }
  return color;
}

const hex = (color: Rgba): string =>
  `#${[color.r, color.g, color.b]
    .map((channel) =>
      Math.round(channel * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** WCAG AA per text measured in the page: the text color (its alpha and the elements' opacity) over what is painted behind it. */
export function contrastOfTexts(
  texts: readonly MeasuredText[],
  canvasColor = 'rgb(255, 255, 255)',
): { checked: number; failures: ContrastFailure[]; overImage: number } {
  const canvas = parseCssColor(canvasColor) ?? WHITE;
  const failures: ContrastFailure[] = [];
  let checked = 0;
  let overImage = 0;
  for (const text of texts) {
    // Text over a background image: its colors come from pixels no style describes (a documented gap).
    if (text.overImage) {
      overImage++;
      continue;
    }
    const parsed = parseCssColor(text.color);
    if (!parsed) continue;
    const background = backgroundOf(text, canvas.alpha < 1 ? compositeOver(canvas, WHITE) : canvas);
    const foreground = compositeOver({ ...parsed, alpha: parsed.alpha * Math.min(1, Math.max(0, text.opacity)), luminance: undefined }, background);
    checked++;
    const ratio = contrastRatio(foreground, background);
    const required = requiredRatio(text);
    if (ratio < required)
      failures.push({
        line: text.line,
        tag: text.tag,
        sample: text.sample,
        color: hex(foreground),
        background: hex(background),
        ratio: displayedRatio(ratio),
        required,
      });
  }
  return { checked, failures, overImage };
}

export function mobileContrast(shots: PaintedShots, clients: readonly ClientId[], modes: readonly ScreenshotMode[]): MobileContrastReport | null {
  const entries: MobileContrastReport['clients'] = [];
  for (const clientId of clients) {
    if (getClient(clientId).category !== 'mobile') continue;
    for (const mode of modes) {
      const shot = shots.get(`${clientId}-${mode}`);
      if (shot) entries.push({ clientId, mode, ...contrastOfTexts(shot.page.measurements.texts, shot.page.measurements.canvas) });
    }
  }
  if (entries.length === 0) return null;
  return { clients: entries, failing: entries.reduce((sum, entry) => sum + entry.failures.length, 0) };
}

/** Reference clients: the ones whose engines paint closest to a plain browser (WebKit, no sanitizer). */
const REFERENCE_ORDER: { wide: readonly ClientId[]; mobile: readonly ClientId[] } = {
  wide: ['apple-mail-macos', 'outlook-macos', 'thunderbird', 'gmail-web'] as ClientId[],
  mobile: ['apple-mail-ios', 'gmail-ios', 'outlook-ios'] as ClientId[],
};

interface Decoded {
  width: number;
  height: number;
  data: Buffer;
}

/** Pads an RGBA image with white rows to `height` (screenshots of different lengths are compared over the longer). */
function padTo(image: Decoded, height: number): Buffer {
  if (image.height === height) return image.data;
  const padded = Buffer.alloc(image.width * height * 4, 255);
  image.data.copy(padded);
  return padded;
}

/**
 * Each client's light screenshot against the reference client's of the same viewport (pixelmatch, its
 * default anti-aliasing detection). Pages that are the same render are 0% without decoding anything; a
 * pair the divergence compared already (`comparisons`) is taken from it.
 */
export function visualReport(
  shots: PaintedShots,
  clients: readonly ClientId[],
  decoded = new DecodedPages(),
  comparisons?: PageComparisons,
): VisualReport | null {
  const pick = (kind: 'wide' | 'mobile'): ClientId | null => {
    const candidates = clients.filter((clientId) => (getClient(clientId).category === 'mobile') === (kind === 'mobile') && shots.has(`${clientId}-light`));
    return REFERENCE_ORDER[kind].find((clientId) => candidates.includes(clientId)) ?? candidates[0] ?? null;
  };
  const references = { wide: pick('wide'), mobile: pick('mobile') };
  const decode = (unit: RenderUnit, page: PaintedPage): Decoded => decoded.atCssPx(unit, page);
  const entries: VisualReport['clients'] = [];
  for (const clientId of clients) {
    const shot = shots.get(`${clientId}-light`);
    if (!shot) continue;
    const reference = getClient(clientId).category === 'mobile' ? references.mobile : references.wide;
    if (!reference || reference === clientId) continue;
    const referenceShot = shots.get(`${reference}-light`);
    if (!referenceShot) continue;
    if (referenceShot.unit.key === shot.unit.key) {
      entries.push({ clientId, reference, changedPercent: 0, regions: [] });
      continue;
    }
    // The reference client's page is the reference rendering (it rewrites nothing): the divergence compared
    // these two pages already.
    const compared = comparisons?.lookup(shot.unit.key, referenceShot.unit.key);
    if (compared?.rowRegions) {
      entries.push({ clientId, reference, changedPercent: compared.changedPercent, regions: compared.rowRegions });
      continue;
    }
    const a = decode(shot.unit, shot.page);
    const b = decode(referenceShot.unit, referenceShot.page);
    const width = Math.min(a.width, b.width);
    const height = Math.max(a.height, b.height);
    if (a.width !== b.width) continue;
    const mask = Buffer.alloc(width * height * 4);
    const changed = pixelmatch(padTo(a, height), padTo(b, height), mask, width, height, { threshold: 0.1, diffMask: true } as Parameters<typeof pixelmatch>[5]);
    entries.push({
      clientId,
      reference,
      changedPercent: Math.round((changed / (width * height)) * 10_000) / 100,
      regions: changed === 0 ? [] : rowRegions(mask, width, height),
    });
  }
  if (entries.length === 0) return null;
  return { references, clients: entries };
}

function mergeEntries<T extends { clientId: ClientId }>(current: readonly T[], next: readonly T[], key: (entry: T) => string): T[] {
  const merged = new Map(current.map((entry) => [key(entry), entry]));
  for (const entry of next) merged.set(key(entry), entry);
  return [...merged.values()];
}

/** Divergence entries of a later render replace those of the same client and scheme; the others stay. */
function mergeDivergence(current: VisualReport['divergence'], next: VisualReport['divergence']): VisualReport['divergence'] {
  if (!current && !next) return undefined;
  const merged: NonNullable<VisualReport['divergence']> = { ...current };
  for (const [clientId, schemes] of Object.entries(next ?? {}) as Array<[ClientId, NonNullable<VisualReport['divergence']>[ClientId]]>)
    merged[clientId] = { ...merged[clientId], ...schemes };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/**
 * A later render of some clients replaces those clients' entries and keeps the others', so a preview
 * rendered in parts ends with one report over every client painted.
 */
export function mergeRenderedReports(current: Partial<StoredRenderedReports> | null, next: StoredRenderedReports): StoredRenderedReports {
  const overflowClients = mergeEntries(current?.overflowReport?.clients ?? [], next.overflowReport?.clients ?? [], (e) => e.clientId);
  const contrastClients = mergeEntries(current?.mobileContrast?.clients ?? [], next.mobileContrast?.clients ?? [], (e) => `${e.clientId}-${e.mode}`);
  const visualClients = mergeEntries(current?.visualReport?.clients ?? [], next.visualReport?.clients ?? [], (e) => e.clientId);
  const divergence = mergeDivergence(current?.visualReport?.divergence, next.visualReport?.divergence);
  const visualBase =
    visualClients.length === 0 && !divergence
      ? null
      : {
          // A render with no light screenshot (dark only) compared no client with a reference client: the stored references stay.
          references: (next.visualReport?.clients.length ? next.visualReport.references : undefined) ??
            current?.visualReport?.references ??
            next.visualReport?.references ?? { wide: null, mobile: null },
          clients: visualClients,
        };
  return {
    overflowReport:
      overflowClients.length === 0 ? null : { clients: overflowClients, overflowing: overflowClients.filter((e) => e.overflowPx > 0).map((e) => e.clientId) },
    mobileContrast: contrastClients.length === 0 ? null : { clients: contrastClients, failing: contrastClients.reduce((sum, e) => sum + e.failures.length, 0) },
    visualReport: visualBase && divergence ? { ...visualBase, divergence } : visualBase,
    screenshotNotes: next.screenshotNotes ?? current?.screenshotNotes ?? [],
  };
}
