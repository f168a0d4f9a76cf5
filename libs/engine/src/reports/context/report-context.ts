/**
 * What every report reads, computed once per email on the engine's own parse and cascade: the static
 * styles, the light colors, and the links, images, visible text and text runs extracted from the tree.
 * Fields are computed on first use.
 */
import type { SelectorCache, StyleCascade } from '../../analysis/style-cascade';
import type { ClientId } from '../../clients/email-client';
import type { EmailFormat } from '../../fixes/code-fix';
import { HtmlElement, HtmlNode, childrenOf, getAttribute, isElement, isText, parentElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import { isImageValue, splitCssValue } from './color-utils';
import { ColorCascade, DropMasks, LIGHT_VARIANT, VariantColors } from './color-cascade';
import { TextRun, VisibleBody, readVisibleText } from './contrast-check';
import { ReportDocument, hasDescendant, textContent } from './report-document';
import type { SourcePosition } from './report-issue';
import { ReportStyles, lengthToPx } from './report-styles';
import { SheetRules, collectSheetRules } from './sheet-rules';
import { collapseWhitespace } from './text-utils';
import { classifyHref, type ClassifiedHref } from './url-utils';

export type { EmailFormat };

/** The engine's analysis of the email that the reports build on. */
export interface ReportInput {
  parsed: ParsedEmail;
  cascade: StyleCascade;
  selectors: SelectorCache;
  format: EmailFormat;
  /** Requested clients, in canonical order; per-client parts of the reports cover these. */
  clients: readonly ClientId[];
  /** Which clients drop which color declarations (from the per-client transforms), for dark contrast. */
  dropMasks?: DropMasks;
}

export interface EmailLink {
  element: HtmlElement;
  href: string;
  classified: ClassifiedHref;
  /** Visible text, white space collapsed. */
  text: string;
  /** What a screen reader announces: aria-label, aria-labelledby, text with image alts, or title. */
  accessibleName: string;
  containsImage: boolean;
  hidden: boolean;
  position: SourcePosition;
  excerpt: string;
}

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'svg' | 'avif' | 'bmp' | 'ico' | 'heic' | 'tiff' | 'unknown';

export interface EmailImage {
  element: HtmlElement;
  kind: 'img' | 'background' | 'input';
  src: string;
  alt: string | null;
  width: number | null;
  height: number | null;
  format: ImageFormat;
  isDataUri: boolean;
  isTrackingPixel: boolean;
  hidden: boolean;
  linked: boolean;
  position: SourcePosition;
  excerpt: string;
}

export interface ReportContext {
  doc: ReportDocument;
  format: EmailFormat;
  clients: readonly ClientId[];
  styles: ReportStyles;
  sheet: SheetRules;
  colors: ColorCascade;
  /** Colors of the email as written. */
  light: VariantColors;
  readonly links: EmailLink[];
  readonly images: EmailImage[];
  /** Text a reader sees in the body, collapsed. */
  readonly visibleText: string;
  /** Subject stand-in: the document title, collapsed. */
  readonly title: string | null;
  /** Elements with their own visible text, in document order. */
  readonly textRuns: TextRun[];
  /** The visible body as a flat list, from the same walk as the visible text. */
  readonly visibleBody: VisibleBody;
}

const EXTENSION_FORMATS: Record<string, ImageFormat> = {
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  gif: 'gif',
  webp: 'webp',
  svg: 'svg',
  svgz: 'svg',
  avif: 'avif',
  bmp: 'bmp',
  ico: 'ico',
  heic: 'heic',
  heif: 'heic',
  tif: 'tiff',
  tiff: 'tiff',
};

/** `src.trim().toLowerCase().startsWith('data:')` without copying the (often long) data URI twice. */
const DATA_URI = /^\s*data:/i;

export function imageFormatOf(src: string): ImageFormat {
  const trimmed = src.trim();
  if (DATA_URI.test(trimmed)) {
    const semicolon = trimmed.indexOf(';');
    const comma = trimmed.indexOf(',');
    const end = semicolon !== -1 && (comma === -1 || semicolon < comma) ? semicolon : comma;
    const mime = trimmed.slice(5, end === -1 ? undefined : end).toLowerCase();
    const subtype = mime.split('/')[1]?.replace('+xml', '') ?? '';
    return EXTENSION_FORMATS[subtype] ?? 'unknown';
  }
  let path = trimmed;
  let query = '';
  const queryStart = path.search(/[?#]/);
  if (queryStart !== -1) {
    query = path.slice(queryStart + 1).toLowerCase();
    path = path.slice(0, queryStart);
  }
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const dot = lastSegment.lastIndexOf('.');
  if (dot !== -1) {
    const byExtension = EXTENSION_FORMATS[lastSegment.slice(dot + 1).toLowerCase()];
    if (byExtension) return byExtension;
  }
  // Image CDNs pick the format by parameter (imgix fm=, Cloudinary-like format=).
  for (const pair of query.split('&')) {
    const [key, value] = pair.split('=');
    if ((key === 'fm' || key === 'format' || key === 'f') && value && EXTENSION_FORMATS[value]) return EXTENSION_FORMATS[value];
  }
  return 'unknown';
}

function declaredLength(value: string | undefined): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed.endsWith('%') || trimmed === 'auto' || trimmed === '') return null;
  const px = lengthToPx(trimmed);
  return Number.isNaN(px) ? null : Math.round(px * 100) / 100;
}

function accessibleNameOf(doc: ReportDocument, element: HtmlElement, styles: ReportStyles): string {
  const label = getAttribute(element, 'aria-label');
  if (label && label.trim()) return collapseWhitespace(label);
  const labelledBy = getAttribute(element, 'aria-labelledby');
  if (labelledBy) {
    const texts: string[] = [];
    for (const id of labelledBy.split(/\s+/)) {
      const target = id ? doc.parsed.elementsById.get(id)?.[0] : undefined;
      if (target) texts.push(textContent(target));
    }
    const joined = collapseWhitespace(texts.join(' '));
    if (joined) return joined;
  }
  let name = '';
  const stack: HtmlNode[] = [...childrenOf(element)].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) name += node.value;
    else if (isElement(node)) {
      if (styles.hiddenReason(node) !== null || getAttribute(node, 'aria-hidden') === 'true') continue;
      if (node.tagName === 'img' || (node.tagName === 'input' && getAttribute(node, 'type') === 'image')) {
        name += ` ${getAttribute(node, 'alt') ?? ''} `;
      } else {
        const nestedLabel = getAttribute(node, 'aria-label');
        if (nestedLabel) name += ` ${nestedLabel} `;
        else {
          const children = childrenOf(node);
          for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
        }
      }
    }
  }
  name = collapseWhitespace(name);
  if (name) return name;
  const title = getAttribute(element, 'title');
  return title ? collapseWhitespace(title) : '';
}

function extractLinks(doc: ReportDocument, styles: ReportStyles): EmailLink[] {
  const links: EmailLink[] = [];
  // Tag indexes are in document order; image maps are rare enough to filter all elements for.
  const anchors = doc.byTag('area').length > 0 ? doc.parsed.elements.filter((e) => e.tagName === 'a' || e.tagName === 'area') : doc.byTag('a');
  const isHidden = (child: HtmlElement): boolean => styles.hiddenReason(child) !== null;
  // Emails repeat their hrefs (logo, footer, tracking redirects); URL parsing is the costly part.
  const classified = new Map<string, ClassifiedHref>();
  for (const element of anchors) {
    const href = getAttribute(element, 'href');
    if (href === undefined) continue;
    let classification = classified.get(href);
    if (!classification) {
      classification = classifyHref(href);
      classified.set(href, classification);
    }
    links.push({
      element,
      href,
      classified: classification,
      text: collapseWhitespace(textContent(element, isHidden)),
      accessibleName: element.tagName === 'area' ? collapseWhitespace(getAttribute(element, 'alt') ?? '') : accessibleNameOf(doc, element, styles),
      containsImage: hasDescendant(element, 'img'),
      hidden: isHidden(element),
      position: doc.position(element),
      excerpt: doc.excerpt(element),
    });
  }
  return links;
}

function insideLink(element: HtmlElement): boolean {
  for (let current = parentElement(element); current; current = parentElement(current)) {
    if (current.tagName === 'a' && getAttribute(current, 'href') !== undefined) return true;
  }
  return false;
}

function backgroundImageUrl(value: string): string | null {
  for (const token of splitCssValue(value)) {
    if (!isImageValue(token)) continue;
    const lower = token.toLowerCase();
    const start = lower.indexOf('url(');
    if (start === -1) continue;
    const end = token.indexOf(')', start);
    const inner = token.slice(start + 4, end === -1 ? undefined : end).trim();
    return inner.replace(/^["']|["']$/g, '');
  }
  return null;
}

function extractImages(doc: ReportDocument, styles: ReportStyles): EmailImage[] {
  const images: EmailImage[] = [];
  // Without any background image in the email, only <img> and image inputs need looking at (in document order).
  const inputs = doc.byTag('input');
  const candidates = styles.mayPaintImages()
    ? doc.parsed.elements
    : inputs.length === 0
      ? doc.byTag('img')
      : [...doc.byTag('img'), ...inputs].sort((a, b) => doc.index.of(a) - doc.index.of(b));
  for (const element of candidates) {
    const tag = element.tagName;
    const isImg = tag === 'img';
    const isImageInput = tag === 'input' && getAttribute(element, 'type')?.toLowerCase() === 'image';
    // Only elements that carry a style or a background attribute can paint a background image.
    const backgroundImage = isImg || isImageInput ? undefined : styles.backgroundImage(element);
    if (!isImg && !isImageInput && !(backgroundImage && isImageValue(backgroundImage))) continue;
    // Each image object is written whole, in one shape (spreading a shared base into literals is several times slower).
    const hidden = styles.hiddenReason(element) !== null;
    const linked = insideLink(element);
    const position = doc.position(element);
    const excerpt = doc.excerpt(element);
    if (isImg || isImageInput) {
      const src = getAttribute(element, 'src') ?? '';
      const width = declaredLength(styles.get(element, 'width') ?? getAttribute(element, 'width'));
      const height = declaredLength(styles.get(element, 'height') ?? getAttribute(element, 'height'));
      const tiny = (width !== null && width <= 1 && height !== null && height <= 1) || width === 0 || height === 0;
      const alt = getAttribute(element, 'alt');
      images.push({
        element,
        hidden,
        linked,
        position,
        excerpt,
        kind: isImg ? 'img' : 'input',
        src,
        alt: alt ?? null,
        width,
        height,
        format: imageFormatOf(src),
        isDataUri: DATA_URI.test(src),
        // A 1×1 or hidden image exists only to record opens.
        isTrackingPixel: src.trim() !== '' && (tiny || hidden),
      });
      continue;
    }
    if (backgroundImage) {
      const declaredBackground = getAttribute(element, 'background');
      const src = declaredBackground ?? backgroundImageUrl(backgroundImage);
      if (!src) continue;
      images.push({
        element,
        hidden,
        linked,
        position,
        excerpt,
        kind: 'background',
        src,
        alt: null,
        width: null,
        height: null,
        format: imageFormatOf(src),
        isDataUri: DATA_URI.test(src),
        isTrackingPixel: false,
      });
    }
  }
  return images;
}

/**
 * The context as one class, its shared extractions computed on first read. Why a class: an object literal
 * whose getters are fresh closures gets a hidden class (map) of its own on every call. Those maps live in
 * the old generation and hold the closures, and through them the whole email (its parse, cascade and
 * styles); every scavenge treats them as roots until the next full collection, so each analysis kept
 * the previous ones' young objects alive and promoted them: ~5 MB copied per scavenge instead of ~1.5 MB,
 * a third of the reports' measured cost (docs/reports.md, "Cost").
 */
class EmailReportContext implements ReportContext {
  readonly doc: ReportDocument;
  readonly format: EmailFormat;
  readonly clients: readonly ClientId[];
  readonly sheet: SheetRules;
  readonly styles: ReportStyles;
  readonly colors: ColorCascade;
  readonly light: VariantColors;
  private linkList: EmailLink[] | undefined;
  private imageList: EmailImage[] | undefined;
  private visible: { text: string; runs: TextRun[]; body: VisibleBody } | undefined;
  private collapsedText: string | undefined;
  private titleText: string | null | undefined;

  constructor(input: ReportInput) {
    this.doc = new ReportDocument(input.parsed);
    this.format = input.format;
    this.clients = input.clients;
    this.sheet = collectSheetRules(input.parsed);
    this.styles = new ReportStyles(this.doc, input.cascade, this.sheet, input.selectors);
    this.colors = new ColorCascade(this.styles, input.dropMasks);
    this.light = new VariantColors(this.colors, LIGHT_VARIANT);
  }

  get links(): EmailLink[] {
    return (this.linkList ??= extractLinks(this.doc, this.styles));
  }

  get images(): EmailImage[] {
    return (this.imageList ??= extractImages(this.doc, this.styles));
  }

  get visibleText(): string {
    return (this.collapsedText ??= collapseWhitespace(this.visibleParts().text));
  }

  get textRuns(): TextRun[] {
    return this.visibleParts().runs;
  }

  get visibleBody(): VisibleBody {
    return this.visibleParts().body;
  }

  get title(): string | null {
    if (this.titleText === undefined) {
      const element = this.doc.byTag('title')[0];
      this.titleText = element ? collapseWhitespace(textContent(element)) || null : null;
    }
    return this.titleText;
  }

  private visibleParts(): { text: string; runs: TextRun[]; body: VisibleBody } {
    return (this.visible ??= readVisibleText(this.doc, this.styles));
  }
}

export function createReportContext(input: ReportInput): ReportContext {
  return new EmailReportContext(input);
}
