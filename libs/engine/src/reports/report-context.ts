/**
 * What every report reads, computed once per email: the parsed tree, the light-mode cascade, and the
 * links, images and visible text extracted from it. Fields are computed on first use.
 */
import { elementExcerpt, elementPosition, textContent, type EmailElement, type ParsedEmail } from './parsed-email';
import type { SourcePosition } from './report-issue';
import { createStyleResolver, lengthToPx, type StyleResolver } from './style-resolver';
import { collapseWhitespace } from './text-utils';
import { classifyHref, type ClassifiedHref } from './url-utils';
import { isImageValue, splitCssValue } from './color-utils';

export type EmailFormat = 'html' | 'jsx' | 'mjml' | 'maizzle';

export interface EmailLink {
  element: EmailElement;
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
  element: EmailElement;
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
  parsed: ParsedEmail;
  format: EmailFormat;
  clients: readonly string[];
  style: StyleResolver;
  readonly links: EmailLink[];
  readonly images: EmailImage[];
  /** Text a reader sees in the body, collapsed. */
  readonly visibleText: string;
  /** Subject stand-in: the document title, collapsed. */
  readonly title: string | null;
}

function lazy<T>(compute: () => T): () => T {
  let value: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value as T;
  };
}

const EXTENSION_FORMATS: Record<string, ImageFormat> = {
  png: 'png', jpg: 'jpeg', jpeg: 'jpeg', jpe: 'jpeg', jfif: 'jpeg', gif: 'gif', webp: 'webp', svg: 'svg', svgz: 'svg',
  avif: 'avif', bmp: 'bmp', ico: 'ico', heic: 'heic', heif: 'heic', tif: 'tiff', tiff: 'tiff',
};

export function imageFormatOf(src: string): ImageFormat {
  const trimmed = src.trim();
  if (trimmed.toLowerCase().startsWith('data:')) {
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

function accessibleNameOf(parsed: ParsedEmail, element: EmailElement, style: StyleResolver): string {
  const label = element.attrs.get('aria-label');
  if (label && label.trim()) return collapseWhitespace(label);
  const labelledBy = element.attrs.get('aria-labelledby');
  if (labelledBy) {
    const byId = new Map<string, EmailElement>();
    for (const id of labelledBy.split(/\s+/)) if (id) byId.set(id, element);
    const texts: string[] = [];
    for (const candidate of parsed.elements) {
      const id = candidate.attrs.get('id');
      if (id && byId.has(id)) texts.push(textContent(candidate));
    }
    const joined = collapseWhitespace(texts.join(' '));
    if (joined) return joined;
  }
  const parts: string[] = [];
  const stack = [...element.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'text') parts.push(node.value);
    else if (node.kind === 'element') {
      if (style.hiddenReason(node) !== null || node.attrs.get('aria-hidden') === 'true') continue;
      if (node.tag === 'img' || (node.tag === 'input' && node.attrs.get('type') === 'image')) {
        parts.push(` ${node.attrs.get('alt') ?? ''} `);
      } else {
        const nestedLabel = node.attrs.get('aria-label');
        if (nestedLabel) parts.push(` ${nestedLabel} `);
        else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      }
    }
  }
  const name = collapseWhitespace(parts.join(''));
  if (name) return name;
  const title = element.attrs.get('title');
  return title ? collapseWhitespace(title) : '';
}

function extractLinks(parsed: ParsedEmail, style: StyleResolver): EmailLink[] {
  const links: EmailLink[] = [];
  for (const element of parsed.elements) {
    if ((element.tag !== 'a' && element.tag !== 'area') || !element.attrs.has('href')) continue;
    const href = element.attrs.get('href') ?? '';
    const containsImage = element.children.length > 0 && textContent(element).trim() === '' && hasDescendant(element, 'img');
    links.push({
      element,
      href,
      classified: classifyHref(href),
      text: collapseWhitespace(textContent(element, (child) => style.hiddenReason(child) !== null)),
      accessibleName: element.tag === 'area' ? collapseWhitespace(element.attrs.get('alt') ?? '') : accessibleNameOf(parsed, element, style),
      containsImage: containsImage || hasDescendant(element, 'img'),
      hidden: style.hiddenReason(element) !== null,
      position: elementPosition(parsed, element),
      excerpt: elementExcerpt(parsed, element),
    });
  }
  return links;
}

function hasDescendant(element: EmailElement, tag: string): boolean {
  const stack = [...element.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind !== 'element') continue;
    if (node.tag === tag) return true;
    stack.push(...node.children);
  }
  return false;
}

function insideLink(element: EmailElement): boolean {
  for (let current = element.parent; current; current = current.parent) if (current.tag === 'a' && current.attrs.has('href')) return true;
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

function extractImages(parsed: ParsedEmail, style: StyleResolver): EmailImage[] {
  const images: EmailImage[] = [];
  for (const element of parsed.elements) {
    const isImg = element.tag === 'img';
    const isImageInput = element.tag === 'input' && element.attrs.get('type')?.toLowerCase() === 'image';
    const backgroundImage = isImg || isImageInput ? undefined : style.get(element, 'background-image');
    if (!isImg && !isImageInput && !(backgroundImage && isImageValue(backgroundImage))) continue;
    const base = {
      element,
      hidden: style.hiddenReason(element) !== null,
      linked: insideLink(element),
      position: elementPosition(parsed, element),
      excerpt: elementExcerpt(parsed, element),
    };
    if (isImg || isImageInput) {
      const src = element.attrs.get('src') ?? '';
      const width = declaredLength(style.get(element, 'width') ?? element.attrs.get('width'));
      const height = declaredLength(style.get(element, 'height') ?? element.attrs.get('height'));
      const tiny = (width !== null && width <= 1 && height !== null && height <= 1) || width === 0 || height === 0;
      images.push({
        ...base,
        kind: isImg ? 'img' : 'input',
        src,
        alt: element.attrs.has('alt') ? element.attrs.get('alt') ?? '' : null,
        width,
        height,
        format: imageFormatOf(src),
        isDataUri: src.trim().toLowerCase().startsWith('data:'),
        // A 1×1 or hidden image exists only to record opens.
        isTrackingPixel: src.trim() !== '' && (tiny || base.hidden),
      });
      continue;
    }
    if (backgroundImage) {
      const declaredBackground = element.attrs.get('background');
      const src = declaredBackground ?? backgroundImageUrl(backgroundImage);
      if (!src) continue;
      images.push({
        ...base,
        kind: 'background',
        src,
        alt: null,
        width: null,
        height: null,
        format: imageFormatOf(src),
        isDataUri: src.trim().toLowerCase().startsWith('data:'),
        isTrackingPixel: false,
      });
    }
  }
  return images;
}

export function createReportContext(parsed: ParsedEmail, format: EmailFormat, clients: readonly string[]): ReportContext {
  const style = createStyleResolver(parsed, { darkMedia: false });
  const links = lazy(() => extractLinks(parsed, style));
  const images = lazy(() => extractImages(parsed, style));
  const visibleText = lazy(() =>
    parsed.body ? collapseWhitespace(textContent(parsed.body, (element) => style.hiddenReason(element) !== null)) : '',
  );
  const title = lazy(() => {
    const element = parsed.byTag('title')[0];
    if (!element) return null;
    const text = collapseWhitespace(textContent(element) || element.children.map((child) => (child.kind === 'text' ? child.value : '')).join(''));
    return text || null;
  });
  return {
    parsed,
    format,
    clients,
    style,
    get links() {
      return links();
    },
    get images() {
      return images();
    },
    get visibleText() {
      return visibleText();
    },
    get title() {
      return title();
    },
  };
}
