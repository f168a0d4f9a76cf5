/**
 * Every image (and CSS/attribute background image): source, declared size, alt, format, whether it is a
 * tracking pixel, how it degrades when images are blocked, and which requested clients drop its format.
 * `bytes` stays null here: the engine has no network; the preview worker may measure weight later.
 */
import { getClientSupport } from '../clients/client-support';
import type { ClientId } from '../clients/email-client';
import { getAttribute } from '../parse/dom';
import { toHex } from './context/color-utils';
import type { ImageFormat, ReportContext } from './context/report-context';
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

function supportFor(feature: string, clients: readonly ClientId[]): { dropped: string[]; partial: string[] } {
  const dropped: string[] = [];
  const partial: string[] = [];
  for (const client of clients) {
    const level = getClientSupport(feature, client).level;
    if (level === 'unsupported') dropped.push(client);
    else if (level === 'partial') partial.push(client);
  }
  return { dropped, partial };
}

export function buildImageReport(context: ReportContext): ImageReport {
  const { styles, clients } = context;
  const issues: ReportIssue[] = [];
  const entries: ImageEntry[] = [];
  const supportCache = new Map<string, { dropped: string[]; partial: string[] }>();
  const support = (feature: string) => {
    let cached = supportCache.get(feature);
    if (!cached) {
      cached = supportFor(feature, clients);
      supportCache.set(feature, cached);
    }
    return cached;
  };

  for (const image of context.images) {
    const rules: string[] = [];
    const add = (issue: Omit<ReportIssue, 'line' | 'column' | 'element' | 'url'>): void => {
      rules.push(issue.rule);
      issues.push({ ...issue, ...image.position, element: image.excerpt, url: shorten(image.src, 300) });
    };
    const backgroundBehind = context.light.background(image.element);
    const inline = styles.inlineDeclarations(image.element);
    const styledAlt = inline.some((declaration) => ALT_STYLE_PROPERTIES.includes(declaration.property));
    const fallback = {
      altText: (image.alt ?? '').trim().length > 0,
      styledAlt,
      // The page background does not count: a blank box on a white page is exactly what to avoid.
      backgroundColor:
        backgroundBehind?.from && backgroundBehind.from.tagName !== 'body' && backgroundBehind.from.tagName !== 'html' ? toHex(backgroundBehind.color) : null,
    };
    const src = image.src.trim();
    const lowerSrc = src.toLowerCase();
    const isTemplate = isTemplateHref(src);

    if (src === '') add({ rule: 'empty-src', severity: 'error', message: 'The image has no src, so it shows as a broken image.' });
    else if (
      !isTemplate &&
      !lowerSrc.startsWith('data:') &&
      !lowerSrc.startsWith('cid:') &&
      !lowerSrc.startsWith('https://') &&
      !lowerSrc.startsWith('http://') &&
      !lowerSrc.startsWith('//')
    ) {
      add({
        rule: 'relative-src',
        severity: 'error',
        message: `"${shorten(src, 60)}" is a relative path; an inbox has no site to load it from. Use an absolute https:// URL.`,
      });
    } else if (lowerSrc.startsWith('http://')) {
      add({
        rule: 'insecure-src',
        severity: 'warning',
        message: 'The image loads over http:; some clients block insecure images or show a mixed-content warning.',
      });
    } else if (lowerSrc.startsWith('//')) {
      add({
        rule: 'protocol-relative-src',
        severity: 'warning',
        message: 'Protocol-relative image URLs (//host) fail in desktop clients; write https:// explicitly.',
      });
    }

    let droppedBy: string[] = [];
    if (!image.isTrackingPixel && src !== '') {
      const feature = FORMAT_FEATURES[image.format];
      if (feature) {
        const { dropped, partial } = support(feature);
        droppedBy = [...dropped];
        if (dropped.length > 0) {
          add({
            rule: 'unsupported-image-format',
            severity: 'warning',
            message: `${image.format.toUpperCase()} images do not display in ${dropped.join(', ')}; provide a PNG or JPEG.`,
          });
        } else if (partial.length > 0) {
          add({
            rule: 'partial-image-format',
            severity: 'info',
            message: `${image.format.toUpperCase()} support is partial in ${partial.join(', ')} (converted or without animation).`,
          });
        }
      }
      if (image.isDataUri) {
        const { dropped } = support('image-base64');
        for (const client of dropped) if (!droppedBy.includes(client)) droppedBy.push(client);
        if (dropped.length > 0) {
          add({
            rule: 'data-uri-image',
            severity: 'warning',
            message: `Images embedded as data: URIs do not display in ${dropped.join(', ')}; host the image instead.`,
          });
        }
        if (src.length > LARGE_DATA_URI_BYTES) {
          add({
            rule: 'large-data-uri',
            severity: 'warning',
            message: `This embedded image adds ${humanBytes(src.length)} to the HTML and brings it closer to Gmail's clipping limit.`,
          });
        }
      }
    }

    if (image.kind === 'background') {
      const ownColor = styles.get(image.element, 'background-color');
      if (!ownColor || ownColor === 'transparent') {
        add({
          rule: 'background-image-no-color',
          severity: 'warning',
          message:
            'A background image without a background-color: where the image is blocked or unsupported (Outlook for Windows without VML), text over it may become unreadable.',
        });
      }
    } else if (!image.isTrackingPixel && !image.hidden) {
      if (image.alt === null) {
        add({
          rule: 'missing-alt',
          severity: 'warning',
          message: 'With images blocked (Outlook by default) this image shows as an empty box with no alt text to stand in for it.',
        });
      }
      const widthAttribute = getAttribute(image.element, 'width');
      if (image.kind === 'img' && (widthAttribute === undefined || Number.isNaN(lengthToPx(widthAttribute)))) {
        add({
          rule: 'missing-width-attribute',
          severity: 'warning',
          message: 'The image has no width attribute; Outlook for Windows ignores CSS widths on images and shows it at its full pixel size.',
        });
      }
      const altWords = wordsOf(image.alt ?? '').length;
      const wide = image.width === null || image.width >= 300;
      if (wide && altWords >= 8) {
        add({
          rule: 'image-carries-text',
          severity: 'info',
          message:
            'The alt text reads like copy, which suggests the image carries text: with images blocked that text is lost, and filters score image-only copy as spam. Put the text in HTML.',
        });
      }
      const large = image.width === null ? false : image.width >= 200;
      if (large && fallback.altText && !styledAlt && fallback.backgroundColor === null) {
        add({
          rule: 'blocked-image-no-fallback',
          severity: 'info',
          message:
            'With images blocked this large image leaves a blank area: give its cell a background color and style the alt text (color, font) so the fallback reads as content.',
        });
      }
    }

    entries.push({
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
    });
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
