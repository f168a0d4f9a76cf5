/**
 * A readable text/plain alternative, generated with html-to-text: links as "text <url>", headings and
 * lists on their own lines, images as their alt text. Elements hidden in the HTML (the preheader, mobile-
 * only copies, tracking pixels) are cut out of the source first, by their exact source ranges.
 */
import { convert, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { BLOCK_TAGS, type EmailElement, type EmailNode } from './parsed-email';
import type { ReportContext } from './report-context';
import { sortIssues, type ReportIssue } from './report-issue';

export interface PlainTextReport {
  text: string;
  /** Characters of `text`. */
  length: number;
  lines: number;
  warnings: ReportIssue[];
}

/** RFC 5322 recommends lines under 78 characters. */
export const PLAIN_TEXT_WRAP = 78;

const altTextFormatter: FormatCallback = (element, _walk, builder) => {
  const attributes = (element as { attribs?: Record<string, string> }).attribs ?? {};
  const alt = (attributes.alt ?? '').trim();
  const width = Number.parseFloat(attributes.width ?? '');
  const height = Number.parseFloat(attributes.height ?? '');
  if (alt && !(width <= 1 && height <= 1)) builder.addInline(alt);
};

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
/** html-to-text walks the tree recursively; real emails nest well under this, hostile input far deeper. */
export const PLAIN_TEXT_MAX_DEPTH = 200;

const OPTIONS: HtmlToTextOptions = {
  wordwrap: PLAIN_TEXT_WRAP,
  limits: { maxDepth: PLAIN_TEXT_MAX_DEPTH },
  formatters: { altText: altTextFormatter },
  selectors: [
    { selector: 'a', options: { linkBrackets: ['<', '>'], hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    { selector: 'img', format: 'altText' },
    ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false, leadingLineBreaks: 2, trailingLineBreaks: 1 } })),
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'th', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'hr', options: { length: 20 } },
  ],
};

function isSkipped(context: ReportContext, element: EmailElement): boolean {
  return context.style.hiddenReason(element) !== null || element.attrs.get('data-skip-in-text') === 'true';
}

/** The body's source with every hidden element's source range removed. */
function visibleSource(context: ReportContext): string {
  const { parsed } = context;
  const cuts: [number, number][] = [];
  const body = parsed.body;
  if (!body) return parsed.html;
  for (const element of parsed.elements) {
    if (element.startOffset < 0 || !isSkipped(context, element)) continue;
    if (element.tag === 'head' || element.tag === 'style' || element.tag === 'script' || element.tag === 'template') continue;
    if (element.parent && element.parent.tag !== '#document' && isSkipped(context, element.parent)) continue;
    if (element.endOffset > element.startOffset) cuts.push([element.startOffset, element.endOffset]);
    else if (element.children.length === 0) cuts.push([element.startOffset, element.startTagEndOffset]);
  }
  if (cuts.length === 0) return parsed.html;
  cuts.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let position = 0;
  for (const [start, end] of cuts) {
    if (start < position) continue;
    parts.push(parsed.html.slice(position, start));
    position = end;
  }
  parts.push(parsed.html.slice(position));
  return parts.join('');
}

/**
 * For input nested deeper than any real email, html-to-text's recursive walk is slow or overflows the
 * stack; this iterative walk over the already-parsed tree gives the plain essentials instead.
 */
function simpleText(context: ReportContext): string {
  const body = context.parsed.body;
  if (!body) return '';
  const parts: string[] = [];
  const stack: (EmailNode | string)[] = [...body.children].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    if (item.kind === 'text') parts.push(item.value.replace(/\s+/g, ' '));
    if (item.kind !== 'element' || isSkipped(context, item) || item.tag === 'style' || item.tag === 'script') continue;
    if (item.tag === 'img') {
      parts.push(item.attrs.get('alt') ?? '');
      continue;
    }
    const block = BLOCK_TAGS.has(item.tag);
    const href = item.tag === 'a' ? item.attrs.get('href') : undefined;
    if (block) parts.push('\n');
    if (href && /^https?:/i.test(href)) stack.push(` <${href}>`);
    if (block) stack.push('\n');
    for (let i = item.children.length - 1; i >= 0; i--) stack.push(item.children[i]);
  }
  return parts.join('');
}

export function buildPlainText(context: ReportContext): PlainTextReport {
  const simplified = context.parsed.maxDepth > PLAIN_TEXT_MAX_DEPTH;
  const converted = simplified ? simpleText(context) : convert(visibleSource(context), OPTIONS);
  const text = converted
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const warnings: ReportIssue[] = [];
  if (simplified) {
    warnings.push({ rule: 'plain-text-simplified', severity: 'info', message: `The HTML nests more than ${PLAIN_TEXT_MAX_DEPTH} elements deep, so the text version was generated without layout formatting.` });
  }
  const contentImages = context.images.filter((image) => !image.isTrackingPixel && !image.hidden && image.kind !== 'background').length;
  if (text.length === 0) {
    warnings.push({ rule: 'plain-text-empty', severity: 'warning', message: 'The email has no text, so the text/plain part is empty; filters and text-only readers see nothing.' });
  } else if (text.length < 100 && contentImages > 0) {
    warnings.push({ rule: 'plain-text-short', severity: 'info', message: `The text version is only ${text.length} characters: most of the content is in images.` });
  }
  return { text, length: text.length, lines: text === '' ? 0 : text.split('\n').length, warnings: sortIssues(warnings) };
}
