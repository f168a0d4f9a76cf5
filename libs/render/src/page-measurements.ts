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
}

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

export const MEASURE_ARGS = { maxElements: MAX_MEASURED_ELEMENTS, maxTexts: MAX_TEXTS };
