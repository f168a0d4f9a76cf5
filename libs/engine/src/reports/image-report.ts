/**
 * Every image (and CSS/attribute background image): source, declared size, alt, format, whether it is a
 * tracking pixel, how it degrades when images are blocked, and which requested clients drop its format.
 * `bytes` stays null here: the engine has no network; the preview worker may measure weight later.
 */
import { getClientSupport } from '../clients/client-support';
import type { ClientId } from '../clients/email-client';
import { getAttribute } from '../parse/dom';
import { toHex } from './context/color-utils';
import type { EmailImage, ImageFormat, ReportContext } from './context/report-context';
import { sortIssues, type ReportIssue } from './context/report-issue';
import { lengthToPx } from './context/report-styles';
import { humanBytes, shorten, wordsOf } from './context/text-utils';
import { isTemplateHref } from './context/url-utils';

export interface ImageEntry {
  src: string;
  kind: 'img' | 'background' | 'input';
  alt: string | null;
  width: number | null;
  height: number | null;
  format: ImageFormat;
  isTrackingPixel: boolean;
  isDataUri: boolean;
  linked: boolean;
  /** Weight in bytes when measured (by the worker); null here. */
  bytes: number | null;
  line?: number;
  column?: number;
  /** What a reader sees with images off. */
  fallback: { altText: boolean; styledAlt: boolean; backgroundColor: string | null };
  /** Requested clients that do not display this image's format. */
  droppedBy: string[];
  rules: string[];
}

export interface ImageReport {
  total: number;
  trackingPixels: number;
  images: ImageEntry[];
  issues: ReportIssue[];
}

/** caniemail feature per format; formats every client shows are absent. */
const FORMAT_FEATURES: Partial<Record<ImageFormat, string>> = {
  svg: 'image-svg',
  webp: 'image-webp',
  avif: 'image-avif',
  bmp: 'image-bmp',
  tiff: 'image-tiff',
  heic: 'image-heif',
  ico: 'image-ico',
};
const LARGE_DATA_URI_BYTES = 100 * 1024;
const HIGH_IMAGE_COUNT = 30;
const ALT_STYLE_PROPERTIES = ['color', 'font-family', 'font-size', 'font-weight', 'line-height'];

type ImageIssue = Omit<ReportIssue, 'line' | 'column' | 'element' | 'url'>;
type ImageFallback = ImageEntry['fallback'];
interface FormatSupport {
  dropped: string[];
  partial: string[];
}

function supportFor(feature: string, clients: readonly ClientId[]): FormatSupport {
  const dropped: string[] = [];
  const partial: string[] = [];
  for (const client of clients) {
    const level = getClientSupport(feature, client).level;
    if (level === 'unsupported') dropped.push(client);
    else if (level === 'partial') partial.push(client);
  }
  return { dropped, partial };
}

/** Looked up once per report: every image of a format asks the same question of the same clients. */
function cachedSupportFor(cache: Map<string, FormatSupport>, feature: string, clients: readonly ClientId[]): FormatSupport {
  let cached = cache.get(feature);
  if (!cached) {
    cached = supportFor(feature, clients);
    cache.set(feature, cached);
  }
  return cached;
}

/** A finding goes both into the report's issues and into the image's own list of rules. */
function addImageIssue(issues: ReportIssue[], rules: string[], image: EmailImage, issue: ImageIssue): void {
  rules.push(issue.rule);
  issues.push({ ...issue, ...image.position, element: image.excerpt, url: shorten(image.src, 300) });
}

function blockedImageFallback(context: ReportContext, image: EmailImage): ImageFallback {
  const backgroundBehind = context.light.background(image.element);
  const inline = context.styles.inlineDeclarations(image.element);
  return {
    altText: (image.alt ?? '').trim().length > 0,
    styledAlt: inline.some((declaration) => ALT_STYLE_PROPERTIES.includes(declaration.property)),
    // The page background does not count: a blank box on a white page is exactly what to avoid.
    backgroundColor:
      backgroundBehind?.from && backgroundBehind.from.tagName !== 'body' && backgroundBehind.from.tagName !== 'html' ? toHex(backgroundBehind.color) : null,
  };
}

/** `src` is the trimmed source: empty, relative, insecure or protocol-relative, at most one finding. */
function checkImageSource(issues: ReportIssue[], rules: string[], image: EmailImage, src: string): void {
  const lowerSrc = src.toLowerCase();
  if (src === '')
    addImageIssue(issues, rules, image, { rule: 'empty-src', severity: 'error', message: 'The image has no src, so it shows as a broken image.' });
  else if (
    !isTemplateHref(src) &&
    !lowerSrc.startsWith('data:') &&
    !lowerSrc.startsWith('cid:') &&
    !lowerSrc.startsWith('https://') &&
    !lowerSrc.startsWith('http://') &&
    !lowerSrc.startsWith('//')
  ) {
    addImageIssue(issues, rules, image, {
      rule: 'relative-src',
      severity: 'error',
      message: `"${shorten(src, 60)}" is a relative path; an inbox has no site to load it from. Use an absolute https:// URL.`,
    });
  } else if (lowerSrc.startsWith('http://')) {
    addImageIssue(issues, rules, image, {
      rule: 'insecure-src',
      severity: 'warning',
      message: 'The image loads over http:; some clients block insecure images or show a mixed-content warning.',
    });
  } else if (lowerSrc.startsWith('//')) {
    addImageIssue(issues, rules, image, {
      rule: 'protocol-relative-src',
      severity: 'warning',
      message: 'Protocol-relative image URLs (//host) fail in desktop clients; write https:// explicitly.',
    });
  }
}

/**
 * The requested clients that do not display this image, because of its format or because it is a data: URI,
 * with a finding for each reason. Tracking pixels and empty sources are not asked about.
 */
function checkImageSupport(
  issues: ReportIssue[],
  rules: string[],
  image: EmailImage,
  src: string,
  clients: readonly ClientId[],
  supportCache: Map<string, FormatSupport>,
): string[] {
  let droppedBy: string[] = [];
  if (image.isTrackingPixel || src === '') return droppedBy;
  const feature = FORMAT_FEATURES[image.format];
  if (feature) {
    const { dropped, partial } = cachedSupportFor(supportCache, feature, clients);
    droppedBy = [...dropped];
    if (dropped.length > 0) {
      addImageIssue(issues, rules, image, {
        rule: 'unsupported-image-format',
        severity: 'warning',
        message: `${image.format.toUpperCase()} images do not display in ${dropped.join(', ')}; provide a PNG or JPEG.`,
      });
    } else if (partial.length > 0) {
      addImageIssue(issues, rules, image, {
        rule: 'partial-image-format',
        severity: 'info',
        message: `${image.format.toUpperCase()} support is partial in ${partial.join(', ')} (converted or without animation).`,
      });
    }
  }
  if (image.isDataUri) checkDataUriImage(issues, rules, image, src, droppedBy, cachedSupportFor(supportCache, 'image-base64', clients).dropped);
  return droppedBy;
}

/** Adds the clients that drop data: URIs to `droppedBy` (once each), and flags embedded images that weigh the HTML down. */
function checkDataUriImage(issues: ReportIssue[], rules: string[], image: EmailImage, src: string, droppedBy: string[], dropped: readonly string[]): void {
  for (const client of dropped) if (!droppedBy.includes(client)) droppedBy.push(client);
  if (dropped.length > 0) {
    addImageIssue(issues, rules, image, {
      rule: 'data-uri-image',
      severity: 'warning',
      message: `Images embedded as data: URIs do not display in ${dropped.join(', ')}; host the image instead.`,
    });
  }
  if (src.length > LARGE_DATA_URI_BYTES) {
    addImageIssue(issues, rules, image, {
      rule: 'large-data-uri',
      severity: 'warning',
      message: `This embedded image adds ${humanBytes(src.length)} to the HTML and brings it closer to Gmail's clipping limit.`,
    });
  }
}

function checkBackgroundImage(issues: ReportIssue[], rules: string[], image: EmailImage, styles: ReportContext['styles']): void {
  const ownColor = styles.get(image.element, 'background-color');
  if (!ownColor || ownColor === 'transparent') {
    addImageIssue(issues, rules, image, {
      rule: 'background-image-no-color',
      severity: 'warning',
      message:
        'A background image without a background-color: where the image is blocked or unsupported (Outlook for Windows without VML), text over it may become unreadable.',
    });
  }
}

/** A visible <img> or image input that carries content: alt text, width attribute, text in the image, blocked-image fallback. */
function checkContentImage(issues: ReportIssue[], rules: string[], image: EmailImage, fallback: ImageFallback): void {
  if (image.alt === null) {
    addImageIssue(issues, rules, image, {
      rule: 'missing-alt',
      severity: 'warning',
      message: 'With images blocked (Outlook by default) this image shows as an empty box with no alt text to stand in for it.',
    });
  }
  const widthAttribute = getAttribute(image.element, 'width');
  if (image.kind === 'img' && (widthAttribute === undefined || Number.isNaN(lengthToPx(widthAttribute)))) {
    addImageIssue(issues, rules, image, {
      rule: 'missing-width-attribute',
      severity: 'warning',
      message: 'The image has no width attribute; Outlook for Windows ignores CSS widths on images and shows it at its full pixel size.',
    });
  }
  const altWords = wordsOf(image.alt ?? '').length;
  const wide = image.width === null || image.width >= 300;
  if (wide && altWords >= 8) {
    addImageIssue(issues, rules, image, {
      rule: 'image-carries-text',
      severity: 'info',
      message:
        'The alt text reads like copy, which suggests the image carries text: with images blocked that text is lost, and filters score image-only copy as spam. Put the text in HTML.',
    });
  }
  const large = image.width === null ? false : image.width >= 200;
  if (large && fallback.altText && !fallback.styledAlt && fallback.backgroundColor === null) {
    addImageIssue(issues, rules, image, {
      rule: 'blocked-image-no-fallback',
      severity: 'info',
      message:
        'With images blocked this large image leaves a blank area: give its cell a background color and style the alt text (color, font) so the fallback reads as content.',
    });
  }
}

function imageEntry(image: EmailImage, fallback: ImageFallback, droppedBy: string[], rules: string[]): ImageEntry {
  return {
    src: shorten(image.src, 2000),
    kind: image.kind,
    alt: image.alt,
    width: image.width,
    height: image.height,
    format: image.format,
    isTrackingPixel: image.isTrackingPixel,
    isDataUri: image.isDataUri,
    linked: image.linked,
    bytes: null,
    ...image.position,
    fallback,
    droppedBy,
    rules,
  };
}

export function buildImageReport(context: ReportContext): ImageReport {
  const { styles, clients } = context;
  const issues: ReportIssue[] = [];
  const entries: ImageEntry[] = [];
  const supportCache = new Map<string, FormatSupport>();

  for (const image of context.images) {
    const rules: string[] = [];
    const fallback = blockedImageFallback(context, image);
    const src = image.src.trim();
    checkImageSource(issues, rules, image, src);
    const droppedBy = checkImageSupport(issues, rules, image, src, clients, supportCache);
    if (image.kind === 'background') checkBackgroundImage(issues, rules, image, styles);
    else if (!image.isTrackingPixel && !image.hidden) checkContentImage(issues, rules, image, fallback);
    entries.push(imageEntry(image, fallback, droppedBy, rules));
  }

  const contentImages = entries.filter((entry) => !entry.isTrackingPixel && entry.kind !== 'background').length;
  if (contentImages > HIGH_IMAGE_COUNT) {
    issues.push({
      rule: 'high-image-count',
      severity: 'info',
      message: `The email has ${contentImages} images; each is a request, and many load slowly on mobile connections.`,
    });
  }
  return {
    total: entries.length,
    trackingPixels: entries.filter((entry) => entry.isTrackingPixel).length,
    images: entries,
    issues: sortIssues(issues),
  };
}
