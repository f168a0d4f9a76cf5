/// <reference lib="dom" />
/** What the render worker reads from a painted page (computed styles and boxes; nothing from the network). */
export interface PageMeasurements {
  viewportWidth: number;
  /** The page's full width: more than the viewport means it scrolls sideways. */
  scrollWidth: number;
  /** The page's full height in CSS px (at least the viewport's). */
  scrollHeight: number;
  /** The height of the email itself: the root element's box, or what overflows it (the screenshot's height). */
  contentHeight: number;
  /** Elements whose box ends past the viewport's right edge, widest first (at most 20). */
  overflowing: Array<{ line: number | null; tag: string; right: number; width: number }>;
  /** Visible elements with text of their own: the colors a reader sees. */
  texts: MeasuredText[];
  /** The color the page paints behind everything (white, or dark where the email opts into a dark color-scheme). */
  canvas: string;
  /** Elements looked at (a page with more is measured in part). */
  elementsMeasured: number;
  elementsTotal: number;
  /** Every element's box and paint-relevant styles (only when asked: the visual divergence matches them up). */
  elements?: MeasuredElements;
}

/**
 * The elements of a page (the body and the first MAX_MEASURED_ELEMENTS inside it, in document order), each
 * with its box in page coordinates (CSS px) and its computed PAINT_PROPERTIES. Styles are interned: many
 * elements share one signature, and the list crosses the DevTools protocol as one small JSON.
 */
export interface MeasuredElements {
  /** One row per element: [line, tag, parent index (-1: none), x, y, width, height, style index, id, classes]. */
  rows: Array<[number | null, string, number, number, number, number, number, number, string, string]>;
  /** Distinct style signatures: PAINT_PROPERTIES' computed values joined with STYLE_SEPARATOR. */
  styles: string[];
}

/**
 * Computed properties compared between the reference and a client page: those a client's rewrite drops or
 * changes and that change what is painted. URLs in `background-image` are reduced to `url` (no address
 * leaves the page, and a data: URI is not copied around).
 */
export const PAINT_PROPERTIES = [
  'display',
  'position',
  'float',
  'flex-direction',
  'visibility',
  'opacity',
  'color',
  'background-color',
  'background-image',
  'border-top-left-radius',
  'border-top-right-radius',
  'border-bottom-right-radius',
  'border-bottom-left-radius',
  'border-top-width',
  'border-top-style',
  'border-top-color',
  'border-right-width',
  'border-right-style',
  'border-right-color',
  'border-bottom-width',
  'border-bottom-style',
  'border-bottom-color',
  'border-left-width',
  'border-left-style',
  'border-left-color',
  'box-shadow',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'line-height',
  'text-align',
  'text-decoration-line',
  'text-transform',
  'letter-spacing',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'max-width',
] as const;

export const STYLE_SEPARATOR = '\u001f';

export interface MeasuredText {
  line: number | null;
  tag: string;
  /** Computed `color` (as Chromium serializes it: rgb()/rgba()/color()). */
  color: string;
  /** Computed opacity of the element and its ancestors multiplied (text fades with it). */
  opacity: number;
  /** Background colors behind the text, nearest first, down to the first opaque one (may be none: the canvas). */
  backgrounds: string[];
  /** Some ancestor paints a background image: the colors under the text cannot be known from styles. */
  overImage: boolean;
  fontSizePx: number;
  fontWeight: number;
  sample: string;
}

/** Elements measured at most per page: a hostile page of 100,000 elements is measured in part, quickly. */
export const MAX_MEASURED_ELEMENTS = 5000;
const MAX_TEXTS = 400;

/**
 * Runs inside the page (page.evaluate works with the page's JavaScript off): self-contained, synchronous,
 * no helpers from outside. `lineAttribute` is the engine's `data-mp-line`.
 */
export function measurePage(args: { lineAttribute: string; maxElements: number; maxTexts: number }): PageMeasurements {
  const root = document.documentElement;
  const body = document.body;
  const viewportWidth = window.innerWidth;
  const scrollWidth = Math.max(root.scrollWidth, body ? body.scrollWidth : 0);
  const scrollHeight = Math.max(root.scrollHeight, body ? body.scrollHeight : 0);
  const rootBox = root.getBoundingClientRect();
  const contentHeight = Math.max(rootBox.bottom + window.scrollY, body ? body.scrollHeight : 0);
  const all = body ? body.getElementsByTagName('*') : document.getElementsByTagName('*');
  const count = Math.min(all.length, args.maxElements);
  const lineOf = (element: Element): number | null => {
    const value = element.getAttribute(args.lineAttribute);
    return value === null ? null : Number(value);
  };
  const overflowing: PageMeasurements['overflowing'] = [];
  const texts: MeasuredText[] = [];
  for (let index = 0; index < count; index++) {
    const element = all[index];
    const box = element.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) continue;
    if (box.right > viewportWidth + 0.5)
      overflowing.push({ line: lineOf(element), tag: element.tagName.toLowerCase(), right: Math.round(box.right), width: Math.round(box.width) });
    if (texts.length >= args.maxTexts) continue;
    let ownText = '';
    for (let child = element.firstChild; child; child = child.nextSibling) if (child.nodeType === 3) ownText += child.nodeValue || '';
    ownText = ownText.replace(/\s+/g, ' ').trim();
    if (ownText === '') continue;
    const style = getComputedStyle(element);
    if (style.visibility !== 'visible' || style.display === 'none') continue;
    const backgrounds: string[] = [];
    let opacity = 1;
    let overImage = false;
    for (let node: Element | null = element; node; node = node.parentElement) {
      const nodeStyle = node === element ? style : getComputedStyle(node);
      opacity *= Number(nodeStyle.opacity);
      if (nodeStyle.backgroundImage !== 'none' && nodeStyle.backgroundImage !== '') overImage = true;
      const background = nodeStyle.backgroundColor;
      if (background && background !== 'rgba(0, 0, 0, 0)' && background !== 'transparent') {
        backgrounds.push(background);
        if (!/^rgba\(|\/\s*0?\.\d/.test(background)) break;
      }
    }
    texts.push({
      line: lineOf(element),
      tag: element.tagName.toLowerCase(),
      color: style.color,
      opacity,
      backgrounds,
      overImage,
      fontSizePx: parseFloat(style.fontSize),
      fontWeight: Number(style.fontWeight) || 400,
      sample: ownText.slice(0, 60),
    });
  }
  overflowing.sort((a, b) => b.right - a.right);
  // The system color Canvas as this page uses it (a `color-scheme: dark` email under a dark scheme gets a
  // dark canvas): read from a probe element that is removed at once, before anything is painted.
  const probe = document.createElement('div');
  probe.style.backgroundColor = 'Canvas';
  (body ?? root).appendChild(probe);
  const canvas = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return {
    viewportWidth,
    scrollWidth,
    scrollHeight,
    contentHeight,
    overflowing: overflowing.slice(0, 20),
    texts,
    canvas,
    elementsMeasured: count,
    elementsTotal: all.length,
  };
}

/**
 * Every element's box and computed PAINT_PROPERTIES (MeasuredElements): the body, then the first
 * `maxElements` inside it in document order. Runs inside the page like measurePage: self-contained.
 */
export function measureElements(args: {
  lineAttribute: string;
  maxElements: number;
  paintProperties: readonly string[];
  separator: string;
}): MeasuredElements | null {
  const body = document.body;
  if (!body) return null;
  const all = body.getElementsByTagName('*');
  const count = Math.min(all.length, args.maxElements);
  const properties = args.paintProperties;
  const rows: MeasuredElements['rows'] = [];
  const styles: string[] = [];
  const styleIndex = new Map<string, number>();
  const indexOf = new Map<Element, number>();
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;
  const round = (value: number): number => Math.round(value * 10) / 10;
  const measure = (element: Element): void => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const values: string[] = [];
    for (const property of properties) {
      const value = style.getPropertyValue(property);
      values.push(property === 'background-image' ? value.replace(/url\((?:"[^"]*"|'[^']*'|[^)]*)\)/g, 'url').slice(0, 200) : value);
    }
    const signature = values.join(args.separator);
    let index = styleIndex.get(signature);
    if (index === undefined) {
      index = styles.length;
      styles.push(signature);
      styleIndex.set(signature, index);
    }
    const parent = element.parentElement ? (indexOf.get(element.parentElement) ?? -1) : -1;
    indexOf.set(element, rows.length);
    const line = element.getAttribute(args.lineAttribute);
    const classes = (element.getAttribute('class') || '').trim().split(/\s+/).filter(Boolean).slice(0, 2).join(' ');
    rows.push([
      line === null ? null : Number(line),
      element.tagName.toLowerCase(),
      parent,
      round(box.left + scrollX),
      round(box.top + scrollY),
      round(box.width),
      round(box.height),
      index,
      (element.getAttribute('id') || '').slice(0, 60),
      classes.slice(0, 80),
    ]);
  };
  measure(body);
  for (let index = 0; index < count; index++) measure(all[index]);
  return { rows, styles };
}

export const MEASURE_ARGS = { maxElements: MAX_MEASURED_ELEMENTS, maxTexts: MAX_TEXTS };
/** measureElements' arguments but the line attribute. */
export const MEASURE_ELEMENTS_ARGS = { maxElements: MAX_MEASURED_ELEMENTS, paintProperties: [...PAINT_PROPERTIES], separator: STYLE_SEPARATOR };
