import { createHash } from 'node:crypto';
import pixelmatch from 'pixelmatch';
import type { ClientId, CssFinding } from '@mailproof/engine';
import type { DivergenceRegion, PageBox, VisualDivergence, VisualReport } from '@mailproof/contracts';
import { decodePng, type RgbaImage } from './png-decode';
import { PAINT_PROPERTIES, STYLE_SEPARATOR, type MeasuredElements } from './page-measurements';
import type { PaintedPage, PaintedShots } from './render-pool';
import { referenceShotId, viewportOf, type ReferenceShotId, type RenderUnit, type ScreenshotMode } from './shot-plan';

/** The reference renderings of one email, by `reference-<viewport>-<mode>`, with the page each came from. */
export type PaintedReferences = Map<ReferenceShotId, { unit: RenderUnit; page: PaintedPage }>;

export type DecodedImage = RgbaImage;

/**
 * The identity of a painted picture: its scale and a digest of its PNG. Pages of different markup often
 * paint the same picture (a rewrite that changes nothing visible): one decode and one pixel comparison
 * serve them all.
 */
const pictureKeys = new WeakMap<PaintedPage, string>();
function pictureKey(unit: RenderUnit, page: PaintedPage): string {
  let key = pictureKeys.get(page);
  if (key === undefined) {
    key = `${unit.deviceScaleFactor}:${createHash('sha1').update(page.png).digest('hex')}`;
    pictureKeys.set(page, key);
  }
  return key;
}

/**
 * PNGs decoded at most once per distinct picture and email (pages whose PNGs are the same bytes share
 * one), at one pixel per CSS px (a phone's 2x page averaged down as it is decoded): the old visualReport
 * and the divergence share them.
 */
export class DecodedPages {
  private readonly images = new Map<string, DecodedImage>();

  atCssPx(unit: RenderUnit, page: PaintedPage): DecodedImage {
    const key = pictureKey(unit, page);
    let image = this.images.get(key);
    if (!image) {
      image = decodePng(page.png, unit.deviceScaleFactor);
      this.images.set(key, image);
    }
    return image;
  }
}

/** pixelmatch's per-pixel threshold (YIQ distance, 0-1): its default, which ignores JPEG-like noise yet sees a 1-step grey change on white. */
export const PIXEL_THRESHOLD = 0.1;
/** Changed pixels are grouped on a grid of this many CSS px; changes closer than two cells form one region. */
const CELL_CSS_PX = 8;
const JOIN_CELLS = 2;
/** A region needs this many changed device pixels (fewer is noise pixelmatch's anti-aliasing test let through). */
const MIN_REGION_PIXELS = 4;
/** Regions kept per client and scheme (largest first); the score counts every changed pixel. */
export const MAX_REGIONS = 12;
const MAX_REGION_ELEMENTS = 3;
/** A box that moved or changed size by more than this (CSS px) is a layout change. */
const LAYOUT_TOLERANCE_PX = 1;

/**
 * The divergence score: 100 x the square root of the share of pixels pixelmatch finds different (its
 * anti-aliasing detection on, so text edges that moved by a sub-pixel do not count). The square root
 * keeps small but visible breakage apart from zero (1% of the pixels: 10; a quarter: 50; all: 100).
 * One decimal.
 */
export function divergenceScore(changedPixels: number, totalPixels: number): number {
  if (changedPixels <= 0 || totalPixels <= 0) return 0;
  return Math.max(0.1, Math.round(Math.sqrt(changedPixels / totalPixels) * 1000) / 10);
}

/** `image` made `height` rows tall with its own bottom-left colour (the page's background) below it. */
function padTo(image: DecodedImage, height: number): Buffer {
  if (image.height === height) return image.data;
  const padded = Buffer.alloc(image.width * height * 4);
  image.data.copy(padded);
  const last = image.height > 0 ? (image.height - 1) * image.width * 4 : -1;
  const fill = last >= 0 ? image.data.readUInt32LE(last) : 0xffffffff;
  for (let offset = image.data.length; offset < padded.length; offset += 4) padded.writeUInt32LE(fill, offset);
  return padded;
}

interface RawRegion {
  box: PageBox;
  pixels: number;
}

/**
 * Changed pixels (the diff mask) grouped on a grid into boxes in CSS px, most changed pixels first.
 * `bands`: the row ranges [from, to) where the mask can have changed pixels (the others are not read).
 */
export function diffRegions(
  mask: Buffer,
  width: number,
  height: number,
  scale = 1,
  bands: ReadonlyArray<readonly [number, number]> = [[0, height]],
): RawRegion[] {
  const cell = Math.max(1, Math.round(CELL_CSS_PX * scale));
  const columns = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const count = new Uint32Array(columns * rows);
  const minX = new Int32Array(columns * rows).fill(width);
  const minY = new Int32Array(columns * rows).fill(height);
  const maxX = new Int32Array(columns * rows).fill(-1);
  const maxY = new Int32Array(columns * rows).fill(-1);
  const mask32 = new Uint32Array(mask.buffer, mask.byteOffset, width * height);
  // Each row is read cell by cell: a cell's changed pixels, first and last are gathered in locals and written
  // once per cell and row, not once per pixel (the grid's arrays, the division by the cell size).
  for (const [from, to] of bands)
    for (let y = from; y < to; y++) {
      const rowCell = Math.floor(y / cell) * columns;
      const row = y * width;
      for (let column = 0, x0 = 0; x0 < width; column++, x0 += cell) {
        const x1 = Math.min(width, x0 + cell);
        let x = x0;
        while (x < x1 && mask32[row + x] === 0) x++;
        if (x === x1) continue;
        const first = x;
        let last = x;
        let changed = 0;
        for (; x < x1; x++)
          if (mask32[row + x] !== 0) {
            changed++;
            last = x;
          }
        const index = rowCell + column;
        count[index] += changed;
        if (first < minX[index]) minX[index] = first;
        if (last > maxX[index]) maxX[index] = last;
        if (y < minY[index]) minY[index] = y;
        if (y > maxY[index]) maxY[index] = y;
      }
    }
  const seen = new Uint8Array(columns * rows);
  const regions: RawRegion[] = [];
  for (let start = 0; start < count.length; start++) {
    if (count[start] === 0 || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    let pixels = 0;
    let left = width;
    let top = height;
    let right = -1;
    let bottom = -1;
    while (stack.length > 0) {
      const index = stack.pop()!;
      pixels += count[index];
      left = Math.min(left, minX[index]);
      right = Math.max(right, maxX[index]);
      top = Math.min(top, minY[index]);
      bottom = Math.max(bottom, maxY[index]);
      const cx = index % columns;
      const cy = (index - cx) / columns;
      for (let ny = Math.max(0, cy - JOIN_CELLS); ny <= Math.min(rows - 1, cy + JOIN_CELLS); ny++) {
        for (let nx = Math.max(0, cx - JOIN_CELLS); nx <= Math.min(columns - 1, cx + JOIN_CELLS); nx++) {
          const next = ny * columns + nx;
          if (count[next] > 0 && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    if (pixels < MIN_REGION_PIXELS) continue;
    const x = Math.floor(left / scale);
    const y = Math.floor(top / scale);
    regions.push({ box: { x, y, width: Math.ceil((right + 1) / scale) - x, height: Math.ceil((bottom + 1) / scale) - y }, pixels });
  }
  return regions.sort((a, b) => b.pixels - a.pixels);
}

/** visualReport.clients' regions: rows with changed pixels grouped into boxes (gaps under 16 CSS px merged), largest first, at most 8. */
export function rowRegions(mask: Buffer, width: number, height: number, bands: ReadonlyArray<readonly [number, number]> = [[0, height]]): PageBox[] {
  const regions: Array<{ top: number; bottom: number; left: number; right: number }> = [];
  const gap = 16;
  let current: (typeof regions)[number] | null = null;
  for (const [from, to] of bands)
    for (let y = from; y < to; y++) {
      let left = -1;
      let right = -1;
      const row = y * width * 4;
      for (let x = 0; x < width; x++) {
        if (mask[row + x * 4 + 3] !== 0) {
          if (left < 0) left = x;
          right = x;
        }
      }
      if (left < 0) continue;
      if (current && y - current.bottom <= gap) {
        current.bottom = y;
        current.left = Math.min(current.left, left);
        current.right = Math.max(current.right, right);
      } else {
        current = { top: y, bottom: y, left, right };
        regions.push(current);
      }
    }
  return regions
    .map((r) => ({
      x: Math.floor(r.left),
      y: Math.floor(r.top),
      width: Math.ceil(r.right - r.left + 1),
      height: Math.ceil(r.bottom - r.top + 1),
    }))
    .sort((a, b) => b.width * b.height - a.width * a.height)
    .slice(0, 8);
}

// ---- Elements: the reference page's against the client page's ----

interface Element {
  line: number | null;
  tag: string;
  parent: number;
  box: PageBox;
  style: number;
  id: string;
  classes: string;
}

function elementsOf(measured: MeasuredElements | undefined): Element[] {
  return (measured?.rows ?? []).map(([line, tag, parent, x, y, width, height, style, id, classes]) => ({
    line,
    tag,
    parent,
    box: { x, y, width, height },
    style,
    id,
    classes,
  }));
}

/**
 * The key an element is matched by across pages: its source line, tag and rank among the elements of that
 * line and tag; an element with no line (a `<tbody>` the parser implied) is keyed under its parent's key.
 */
function matchKeys(elements: readonly Element[]): Array<string | null> {
  const seen = new Map<string, number>();
  const keys: Array<string | null> = [];
  for (const element of elements) {
    let base: string | null;
    if (element.line !== null) base = `${element.line}|${element.tag}`;
    else if (element.tag === 'body') base = 'body';
    else {
      const parentKey = element.parent >= 0 ? keys[element.parent] : null;
      base = parentKey ? `${parentKey}>${element.tag}` : null;
    }
    if (base === null) {
      keys.push(null);
      continue;
    }
    const rank = seen.get(base) ?? 0;
    seen.set(base, rank + 1);
    keys.push(`${base}|${rank}`);
  }
  return keys;
}

const area = (box: PageBox): number => Math.max(0, box.width) * Math.max(0, box.height);

function intersection(a: PageBox, b: PageBox): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

const moved = (a: PageBox, b: PageBox): boolean =>
  Math.abs(a.x - b.x) > LAYOUT_TOLERANCE_PX ||
  Math.abs(a.y - b.y) > LAYOUT_TOLERANCE_PX ||
  Math.abs(a.width - b.width) > LAYOUT_TOLERANCE_PX ||
  Math.abs(a.height - b.height) > LAYOUT_TOLERANCE_PX;

/** Longhands reported under the name an author writes. */
function propertyGroup(property: string): string {
  if (property.startsWith('border-') && property.endsWith('-radius')) return 'border-radius';
  if (property.startsWith('border-')) return 'border';
  if (property.startsWith('padding-')) return 'padding';
  if (property.startsWith('margin-')) return 'margin';
  return property;
}

/** Which differences explain a region first: what rearranges the page, then what a reader notices most. */
const CAUSE_PRIORITY = (
  'display flex-direction float position max-width background-image background-color border-radius border box-shadow padding margin ' +
  'visibility opacity color font-family font-size font-weight font-style line-height text-align text-decoration-line text-transform letter-spacing'
).split(' ');

const BORDER_STYLE: Record<string, number> = Object.fromEntries(
  ['top', 'right', 'bottom', 'left'].map((side) => [side, PAINT_PROPERTIES.indexOf(`border-${side}-style` as (typeof PAINT_PROPERTIES)[number])]),
);

const BACKGROUND_COLOR = PAINT_PROPERTIES.indexOf('background-color');

interface StyleChange {
  group: string;
  property: string;
  from: string;
  to: string;
}

function changeRank(change: StyleChange | undefined): number {
  const position = change ? CAUSE_PRIORITY.indexOf(change.group) : -1;
  return position < 0 ? CAUSE_PRIORITY.length : position;
}

/** An element of the reference page tied to a region, with what differs on it in the client page. */
interface RegionElement {
  index: number;
  changes: StyleChange[];
  missing: boolean;
}

interface PairRegion {
  box: PageBox;
  kind: DivergenceRegion['kind'];
  elements: Array<{ selector: string; line: number | null }>;
  explained: RegionElement | null;
  tag: string | null;
  /** The explaining element's line (a finding on that line names the behaviour first). */
  line: number | null;
  buttonLike: boolean;
}

/** One comparison of a client page with a reference page (clients whose page is the same share it). */
interface PairResult {
  score: number;
  regions: PairRegion[];
  /** The same comparison as visualReport.clients gives it (share of changed pixels, row regions). */
  changedPercent: number;
  /** null: not computed, as the reference page is no client's page (visualReport.clients never takes this pair). */
  rowRegions: PageBox[] | null;
}

function cssIdentifier(value: string): string {
  return value.replace(/[^\w-]/g, (character) => `\\${character}`);
}

function selectorOf(elements: readonly Element[], index: number): string {
  const segments: string[] = [];
  for (let current = index; current >= 0 && segments.length < 6; current = elements[current].parent) {
    const element = elements[current];
    if (element.id) {
      segments.unshift(`${element.tag}#${cssIdentifier(element.id)}`);
      break;
    }
    const classes = element.classes ? element.classes.split(' ').map((name) => `.${cssIdentifier(name)}`) : [];
    segments.unshift(`${element.tag}${classes.join('')}`);
    if (element.tag === 'body') break;
  }
  return segments.join(' > ');
}

class PageComparison {
  private readonly reference: Element[];
  private readonly client: Element[];
  private readonly referenceStyles: string[][];
  private readonly clientStyles: string[][];
  /** Client element index of each reference element (-1: not in the client page). */
  private readonly match: Int32Array;
  /** Whether a reference element can be matched at all (it has a key). */
  private readonly matchable: Uint8Array;
  private readonly changesCache = new Map<number, StyleChange[]>();
  private readonly referenceCanvas: string;
  private readonly clientCanvas: string;

  constructor(referencePage: PaintedPage, clientPage: PaintedPage) {
    this.referenceCanvas = referencePage.measurements.canvas;
    this.clientCanvas = clientPage.measurements.canvas;
    this.reference = elementsOf(referencePage.measurements.elements);
    this.client = elementsOf(clientPage.measurements.elements);
    this.referenceStyles = (referencePage.measurements.elements?.styles ?? []).map((style) => style.split(STYLE_SEPARATOR));
    this.clientStyles = (clientPage.measurements.elements?.styles ?? []).map((style) => style.split(STYLE_SEPARATOR));
    const clientKeys = new Map<string, number>();
    matchKeys(this.client).forEach((key, index) => {
      if (key !== null) clientKeys.set(key, index);
    });
    this.match = new Int32Array(this.reference.length).fill(-1);
    this.matchable = new Uint8Array(this.reference.length);
    matchKeys(this.reference).forEach((key, index) => {
      if (key === null) return;
      this.matchable[index] = 1;
      this.match[index] = clientKeys.get(key) ?? -1;
    });
  }

  /** The colour painted behind an element: its own background colour or its nearest ancestor's, else the page's canvas. */
  private backgroundBehind(elements: readonly Element[], styles: readonly string[][], index: number, canvas: string): string {
    for (let current = index; current >= 0; current = elements[current].parent) {
      const value = styles[elements[current].style]?.[BACKGROUND_COLOR];
      if (value && value !== 'rgba(0, 0, 0, 0)') return value;
    }
    return canvas;
  }

  /** Computed styles that differ on a reference element in the client page (only those that start there, not inherited ones). */
  private changesOf(index: number): StyleChange[] {
    let changes = this.changesCache.get(index);
    if (changes) return changes;
    changes = [];
    const other = this.match[index];
    if (other >= 0) {
      const from = this.referenceStyles[this.reference[index].style] ?? [];
      const to = this.clientStyles[this.client[other].style] ?? [];
      const parent = this.reference[index].parent;
      const parentOther = parent >= 0 ? this.match[parent] : -1;
      const parentFrom = parent >= 0 ? this.referenceStyles[this.reference[parent].style] : undefined;
      const parentTo = parentOther >= 0 ? this.clientStyles[this.client[parentOther].style] : undefined;
      if (this.reference[index].style >= 0 && from.join() !== to.join()) {
        PAINT_PROPERTIES.forEach((property, position) => {
          if (from[position] === to[position]) return;
          // A border that is not drawn on either side: its colour (currentColor) and width paint nothing.
          const side = /^border-(top|right|bottom|left)-(color|width)$/.exec(property);
          if (side && from[BORDER_STYLE[side[1]]] === 'none' && to[BORDER_STYLE[side[1]]] === 'none') return;
          // A background colour dropped where the same colour shows through (white on a white page).
          if (
            property === 'background-color' &&
            this.backgroundBehind(this.reference, this.referenceStyles, index, this.referenceCanvas) ===
              this.backgroundBehind(this.client, this.clientStyles, other, this.clientCanvas)
          )
            return;
          // Inherited from a parent that changed the same way: the parent is where it starts.
          if (parentFrom && parentTo && parentFrom[position] === from[position] && parentTo[position] === to[position]) return;
          changes!.push({ group: propertyGroup(property), property, from: from[position] ?? '', to: to[position] ?? '' });
        });
      }
    }
    this.changesCache.set(index, changes);
    return changes;
  }

  /** The kind of a region, the author's elements under it and the one whose change explains it. */
  describe(box: PageBox): Omit<PairRegion, 'box'> {
    const candidates: Array<{ index: number; area: number; overlap: number; inReference: boolean; layout: boolean; missing: boolean }> = [];
    for (let index = 0; index < this.reference.length; index++) {
      const element = this.reference[index];
      const other = this.match[index];
      const clientBox = other >= 0 ? this.client[other].box : null;
      const overlap = intersection(element.box, box);
      const clientOverlap = clientBox ? intersection(clientBox, box) : 0;
      if (overlap === 0 && clientOverlap === 0) continue;
      const visible = area(element.box) > 0;
      const missing = visible && this.matchable[index] === 1 && (clientBox === null || area(clientBox) === 0);
      const layout = missing || (clientBox !== null && moved(element.box, clientBox));
      candidates.push({ index, area: area(element.box), overlap: Math.max(overlap, clientOverlap), inReference: overlap > 0, layout, missing });
    }
    const kind: DivergenceRegion['kind'] = candidates.some((candidate) => candidate.layout) ? 'layout' : 'color';
    const regionArea = Math.max(1, area(box));
    const ranked = (list: typeof candidates) => [...list].sort((a, b) => a.area - b.area || b.overlap - a.overlap);
    // The elements a change starts on (a style of their own changed, or they are gone): those in the region
    // in the reference first (an element that only moved into it explains less), the most telling change
    // first (what rearranges the page, then what a reader notices most), smaller elements first;
    // otherwise the smallest elements that moved; otherwise the smallest that cover the region.
    const explaining = candidates
      .filter((candidate) => candidate.missing || this.changesOf(candidate.index).length > 0)
      .map((candidate) => ({ ...candidate, rank: candidate.missing ? 0 : changeRank(this.sortedChanges(candidate.index)[0]) }))
      .sort((a, b) => Number(b.inReference) - Number(a.inReference) || a.rank - b.rank || a.area - b.area || b.overlap - a.overlap);
    const layoutOnly = ranked(candidates.filter((candidate) => candidate.layout));
    const covering = ranked(
      candidates.filter((candidate) => candidate.overlap >= regionArea * 0.25 || (candidate.area > 0 && candidate.overlap >= candidate.area * 0.5)),
    );
    // Elements the parser implied (no line in the source) are left out of the list when others are there.
    const withLines = (list: typeof candidates) => {
      const lined = list.filter((candidate) => this.reference[candidate.index].line !== null);
      return lined.length > 0 ? lined : list;
    };
    const chosen = withLines(explaining.length > 0 ? explaining : layoutOnly.length > 0 ? layoutOnly : covering).slice(0, MAX_REGION_ELEMENTS);
    const best = explaining[0] ? { index: explaining[0].index, changes: this.sortedChanges(explaining[0].index), missing: explaining[0].missing } : null;
    const explained = best && (best.missing || best.changes.length > 0) ? best : null;
    const explainedElement = explained ? this.reference[explained.index] : null;
    return {
      kind,
      elements: chosen.map((candidate) => ({ selector: selectorOf(this.reference, candidate.index), line: this.reference[candidate.index].line })),
      explained,
      tag: explainedElement?.tag ?? null,
      line: explainedElement?.line ?? null,
      buttonLike: explainedElement ? this.buttonLike(explained!.index) : false,
    };
  }

  private sortedChanges(index: number): StyleChange[] {
    return [...this.changesOf(index)].sort((a, b) => changeRank(a) - changeRank(b));
  }

  /** A link or cell painted like a button (a background colour or a border and some padding). */
  private buttonLike(index: number): boolean {
    const element = this.reference[index];
    if (element.tag === 'button') return true;
    if (element.tag !== 'a' && element.tag !== 'td') return false;
    const style = this.referenceStyles[element.style] ?? [];
    const value = (property: (typeof PAINT_PROPERTIES)[number]): string => style[PAINT_PROPERTIES.indexOf(property)] ?? '';
    const painted = value('background-color') !== 'rgba(0, 0, 0, 0)' || value('border-top-style') !== 'none';
    const padded = parseFloat(value('padding-left')) > 0 || parseFloat(value('padding-top')) > 0;
    const rounded = parseFloat(value('border-top-left-radius')) > 0;
    return element.tag === 'a' ? painted && (padded || rounded) : painted && rounded;
  }
}

/** Identical rows of two images taken as unchanged: rows that differ are compared by pixelmatch in bands. */
const BAND_MARGIN_ROWS = 4;
/**
 * A band where more than this share of pixels differ at all is compared without pixelmatch's
 * anti-aliasing test: the test only ever discounts edge pixels, a small share of a band that changed
 * wholesale (a page recolored, content shifted), and it is most of pixelmatch's time there.
 */
const WHOLESALE_SHARE = 0.5;

/**
 * pixelmatch over the bands of rows where the images differ (a row compared byte for byte first, in
 * native code), each band with clean rows around it so the anti-aliasing test sees every neighbour.
 * Writes the diff mask (which must be zeros) and answers the count of changed pixels and the bands.
 */
function diffByBands(a: Buffer, b: Buffer, mask: Buffer, width: number, height: number): { changed: number; bands: Array<[number, number]> } {
  const stride = width * 4;
  const rowEqual = (y: number): boolean => a.compare(b, y * stride, (y + 1) * stride, y * stride, (y + 1) * stride) === 0;
  const a32 = new Uint32Array(a.buffer, a.byteOffset, width * height);
  const b32 = new Uint32Array(b.buffer, b.byteOffset, width * height);
  const bands: Array<[number, number]> = [];
  let changed = 0;
  let y = 0;
  while (y < height) {
    if (rowEqual(y)) {
      y++;
      continue;
    }
    const start = Math.max(0, y - 1);
    let end = y + 1;
    let clean = 0;
    while (end < height && clean < BAND_MARGIN_ROWS) {
      clean = rowEqual(end) ? clean + 1 : 0;
      end++;
    }
    let unequal = 0;
    for (let index = start * width; index < end * width; index++) if (a32[index] !== b32[index]) unequal++;
    const from = start * stride;
    const to = end * stride;
    changed += pixelmatch(a.subarray(from, to), b.subarray(from, to), mask.subarray(from, to), width, end - start, {
      threshold: PIXEL_THRESHOLD,
      diffMask: true,
      includeAA: unequal > (end - start) * width * WHOLESALE_SHARE,
    });
    bands.push([start, end]);
    y = end;
  }
  return { changed, bands };
}

/** Diff masks reused from one comparison to the next (zeroed), instead of a new buffer of megabytes per pair. */
class MaskBuffers {
  private buffer = Buffer.alloc(0);

  zeroed(bytes: number): Buffer {
    if (this.buffer.length < bytes) this.buffer = Buffer.alloc(bytes);
    const mask = this.buffer.subarray(0, bytes);
    mask.fill(0);
    return mask;
  }
}

/** What two pictures' pixels say, whichever pages painted them: the same for every pair of pages with these two PNGs. */
interface PixelDiff {
  score: number;
  /** The regions' boxes, most changed pixels first (at most MAX_REGIONS). */
  boxes: PageBox[];
  changedPercent: number;
  rowRegions: PageBox[] | null;
}

const unchanged = (): PairResult => ({ score: 0, regions: [], changedPercent: 0, rowRegions: [] });

/**
 * Compares two pictures at CSS px (a phone's 2x page averaged down: a quarter of the pixels, and a region's
 * box is in page coordinates directly); null when they are not the same width. `withRows`: also the row
 * regions of visualReport.clients.
 */
function comparePixels(
  clientShot: { unit: RenderUnit; page: PaintedPage },
  referenceShot: { unit: RenderUnit; page: PaintedPage },
  decoded: DecodedPages,
  masks: MaskBuffers,
  withRows: boolean,
): PixelDiff | null {
  const a = decoded.atCssPx(clientShot.unit, clientShot.page);
  const b = decoded.atCssPx(referenceShot.unit, referenceShot.page);
  if (a.width !== b.width) return null;
  const width = a.width;
  const height = Math.max(a.height, b.height);
  const mask = masks.zeroed(width * height * 4);
  const { changed, bands } = diffByBands(padTo(a, height), padTo(b, height), mask, width, height);
  if (changed === 0) return { score: 0, boxes: [], changedPercent: 0, rowRegions: [] };
  return {
    score: divergenceScore(changed, width * height),
    boxes: diffRegions(mask, width, height, 1, bands)
      .slice(0, MAX_REGIONS)
      .map((region) => region.box),
    changedPercent: Math.round((changed / (width * height)) * 10_000) / 100,
    rowRegions: withRows ? rowRegions(mask, width, height, bands) : null,
  };
}

/** The regions of a pixel comparison described with the two pages' elements (kind, elements, what explains them). */
function describePair(pixels: PixelDiff, referencePage: PaintedPage, clientPage: PaintedPage): PairResult {
  if (pixels.score === 0) return unchanged();
  const comparison = new PageComparison(referencePage, clientPage);
  return {
    score: pixels.score,
    regions: pixels.boxes.map((box) => ({ box, ...comparison.describe(box) })),
    changedPercent: pixels.changedPercent,
    rowRegions: pixels.rowRegions,
  };
}

const NOUNS: Record<string, string> = {
  a: 'link',
  img: 'image',
  td: 'cell',
  th: 'cell',
  table: 'table',
  tr: 'row',
  div: 'block',
  section: 'block',
  p: 'paragraph',
  span: 'text',
  ul: 'list',
  ol: 'list',
  li: 'list item',
  button: 'button',
  body: 'body',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
};

/** Values a property falls back to when a client drops it. */
const DROPPED = /^(none|0px|normal|static|rgba\(0, 0, 0, 0\)|0px none rgb\(.*\)|start|auto|visible|1)$/;

/** The sentence and fields of a region's cause, for one client (clients sharing a page share everything else). */
function causeOf(region: PairRegion, client: ClientId, recoloredByDarkMode: boolean, findings: readonly CssFinding[]): DivergenceRegion['cause'] | undefined {
  const explained = region.explained;
  if (!explained) return undefined;
  const noun = region.buttonLike ? 'button' : (NOUNS[region.tag ?? ''] ?? `<${region.tag}>`);
  if (explained.missing) return { message: `the ${noun} is not shown by ${client}` };
  const change = explained.changes[0];
  if (!change) return undefined;
  const onProperty = findings.filter(
    (finding) =>
      finding.client === client &&
      (finding.property === change.group || finding.property.startsWith(`${change.group}:`) || finding.property === change.property),
  );
  // The finding on the element's own line (findings give their first use), else the client's on that property.
  const behaviour = onProperty.find((finding) => (finding.compiledLine ?? finding.line) === region.line) ?? onProperty[0];
  const withBehaviour = (message: string): NonNullable<DivergenceRegion['cause']> => ({
    message,
    property: change.group,
    ...(behaviour ? { behaviour: behaviour.rule } : {}),
  });
  if (recoloredByDarkMode && (change.group === 'color' || change.group === 'background-color' || change.group === 'border'))
    return withBehaviour(`the ${noun}'s \`${change.group}\` is recolored by ${client}'s dark mode (${change.from} → ${change.to})`);
  if (change.group === 'display' && region.kind === 'layout' && /flex|grid/.test(change.from))
    return withBehaviour(`\`display:${change.from}\` is removed from the ${noun} by ${client}, so its children stack`);
  if (change.group === 'background-image' && change.to === 'none') return withBehaviour(`the ${noun}'s background image is dropped by ${client}`);
  if (DROPPED.test(change.to) && !DROPPED.test(change.from)) return withBehaviour(`the ${noun}'s \`${change.group}\` is dropped by ${client}`);
  return withBehaviour(`the ${noun}'s \`${change.group}\` changes from \`${change.from}\` to \`${change.to}\` in ${client}`);
}

type PaintedShot = { unit: RenderUnit; page: PaintedPage };

/**
 * The page comparisons of one email, each made once (a page shared by clients is compared once), with
 * the decoded pages and a reusable mask. The pixels of two pages are compared once per pair of pictures
 * (pages of different markup that paint the same PNG share it); only the regions' elements are read per
 * pair of pages. renderEmail fills it while the browsers paint the other pages.
 */
export class PageComparisons {
  readonly decoded = new DecodedPages();
  private readonly masks = new MaskBuffers();
  private readonly pixels = new Map<string, PixelDiff | null>();
  private readonly pairs = new Map<string, PairResult | null>();

  /** A comparison made already (undefined: not made; null: the pages could not be compared). */
  lookup(clientKey: string, referenceKey: string): PairResult | null | undefined {
    return this.pairs.get(`${clientKey}|${referenceKey}`);
  }

  compare(clientShot: PaintedShot, referenceShot: PaintedShot): PairResult | null {
    const key = `${clientShot.unit.key}|${referenceShot.unit.key}`;
    let pair = this.pairs.get(key);
    if (pair === undefined) {
      if (clientShot.unit.key === referenceShot.unit.key || clientShot.page.png.equals(referenceShot.page.png)) pair = unchanged();
      else {
        const pictures = `${pictureKey(clientShot.unit, clientShot.page)}|${pictureKey(referenceShot.unit, referenceShot.page)}`;
        // visualReport.clients can take this pair only when the reference page is also a client's page.
        const withRows = referenceShot.unit.shots.length > 0;
        let pixels = this.pixels.get(pictures);
        if (pixels === undefined || (withRows && pixels !== null && pixels.score > 0 && pixels.rowRegions === null)) {
          pixels = comparePixels(clientShot, referenceShot, this.decoded, this.masks, withRows);
          this.pixels.set(pictures, pixels);
        }
        pair = pixels && describePair(pixels, referenceShot.page, clientShot.page);
      }
      this.pairs.set(key, pair);
    }
    return pair;
  }
}

/**
 * `visualReport.divergence`: every client and scheme painted against the reference rendering of its
 * viewport and scheme (docs/visual.md). Client pages identical to the reference score 0 without a decode;
 * clients sharing a page share its comparison; each PNG is decoded once.
 */
export function visualDivergence(
  painted: PaintedShots,
  references: PaintedReferences,
  clients: readonly ClientId[],
  modes: readonly ScreenshotMode[],
  findings: readonly CssFinding[] = [],
  comparisons = new PageComparisons(),
): NonNullable<VisualReport['divergence']> {
  const divergence: NonNullable<VisualReport['divergence']> = {};
  for (const clientId of clients) {
    for (const mode of modes) {
      const shot = painted.get(`${clientId}-${mode}`);
      const reference = references.get(referenceShotId(viewportOf(clientId), mode));
      if (!shot || !reference) continue;
      const pair = comparisons.compare(shot, reference);
      if (!pair) continue;
      const recolored = mode === 'dark' && shot.unit.colorScheme === 'light';
      // A client that paints its light page in dark mode, for an email whose own dark rules change it.
      const referenceLight = references.get(referenceShotId(viewportOf(clientId), 'light'));
      const darkIgnored =
        mode === 'dark' &&
        painted.get(`${clientId}-light`)?.unit.key === shot.unit.key &&
        referenceLight !== undefined &&
        !referenceLight.page.png.equals(reference.page.png);
      const darkFinding = findings.find((finding) => finding.client === clientId && finding.property.includes('prefers-color-scheme'));
      const ignoredCause: DivergenceRegion['cause'] = {
        message: `${clientId} does not apply the email's own dark rules (\`prefers-color-scheme: dark\`): it shows the light design`,
        property: 'prefers-color-scheme',
        ...(darkFinding ? { behaviour: darkFinding.rule } : {}),
      };
      const entry: VisualDivergence = {
        score: pair.score,
        regions: pair.regions.map((region) => {
          const cause = darkIgnored ? ignoredCause : causeOf(region, clientId, recolored, findings);
          return { box: region.box, kind: region.kind, elements: region.elements, ...(cause ? { cause } : {}) };
        }),
      };
      divergence[clientId] = { ...divergence[clientId], [mode]: entry };
    }
  }
  return divergence;
}
