/**
 * A readable text/plain alternative, generated with html-to-text: links as "text <url>", headings and
 * lists on their own lines, images as their alt text. html-to-text parses HTML itself, so it gets a
 * small input written from the engine's tree: the visible body only (hidden elements such as the
 * preheader, mobile-only copies and tracking pixels left out), the elements and attributes its formatters
 * read, and every other element unwrapped (html-to-text formats them inline, as if they were not there).
 * The converter is compiled once, not per email.
 */
import { compile, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { HtmlElement, HtmlNode, childrenOf, getAttribute, isElement, isText } from '../parse/dom';
import type { ReportContext } from './report-context';
import { BLOCK_TAGS } from './report-document';
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

const toText = compile(OPTIONS);

/**
 * Elements html-to-text formats (everything else it treats as inline), with the attributes it reads.
 */
const KEPT: Readonly<Record<string, readonly string[]>> = {
  a: ['href'], img: ['alt', 'width', 'height'], ol: ['start', 'type'], ul: [], li: [], p: [], br: [], hr: [], wbr: [], div: [],
  pre: [], blockquote: [], table: [], tr: [], td: [], th: [], h1: [], h2: [], h3: [], h4: [], h5: [], h6: [], article: [],
  aside: [], footer: [], form: [], header: [], main: [], nav: [], section: [],
};
const VOID = new Set(['img', 'br', 'hr', 'wbr']);
const NOT_TEXT = new Set(['script', 'style', 'template', 'head', 'title', 'noscript']);

const TEXT_SPECIALS = /[&<>]/;

function escapeText(text: string): string {
  return TEXT_SPECIALS.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

function isSkipped(context: ReportContext, element: HtmlElement): boolean {
  return NOT_TEXT.has(element.tagName) || context.styles.hiddenReason(element) !== null || getAttribute(element, 'data-skip-in-text') === 'true';
}

/** Text that shows: anything but white space (no-break spaces and zero-width spaces included). */
const SHOWS = /[^\s\u200b]/;
/** Kept elements that are left out when nothing inside them shows (spacer cells, empty paragraphs). */
const DROPPED_WHEN_EMPTY = new Set(['div', 'p', 'table', 'tr', 'td', 'th', 'li', 'ul', 'ol', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'article', 'aside', 'footer', 'form', 'header', 'main', 'nav', 'section']);

interface OpenElement {
  tag: string;
  /** Index in `parts` where the element's start tag was written. */
  start: number;
  /** Count of showing content written before the element opened. */
  shownBefore: number;
}

/**
 * The visible body as minimal HTML, and how deeply its kept elements nest. Blocks with nothing that
 * shows are left out, so spacer cells do not become blank lines.
 */
function visibleBodyHtml(context: ReportContext): { html: string; depth: number } {
  const body = context.doc.body;
  if (!body) return { html: '', depth: 0 };
  const parts: string[] = [];
  let shown = 0;
  let maxDepth = 0;
  const stack: Array<{ node: HtmlNode; depth: number } | OpenElement> = [];
  const pushChildren = (element: HtmlElement, depth: number): void => {
    const children = childrenOf(element);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], depth });
  };
  pushChildren(body, 0);
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('tag' in item) {
      if (DROPPED_WHEN_EMPTY.has(item.tag) && shown === item.shownBefore) parts.length = item.start;
      else parts.push(`</${item.tag}>`);
      continue;
    }
    const { node, depth } = item;
    if (isText(node)) {
      parts.push(escapeText(node.value));
      if (SHOWS.test(node.value)) shown++;
      continue;
    }
    if (!isElement(node) || isSkipped(context, node)) continue;
    const tagName = node.tagName;
    const kept = KEPT[tagName];
    if (!kept) {
      pushChildren(node, depth);
      continue;
    }
    let tag = `<${tagName}`;
    for (const name of kept) {
      const value = getAttribute(node, name);
      if (value !== undefined) tag += ` ${name}="${escapeAttribute(value)}"`;
    }
    const start = parts.length;
    parts.push(`${tag}>`);
    // A link prints its URL even without text (an image link without alt), so it shows.
    if (tagName === 'a' && SHOWS.test(getAttribute(node, 'href') ?? '')) shown++;
    if (VOID.has(tagName)) {
      if (tagName === 'hr' || (tagName === 'img' && SHOWS.test(getAttribute(node, 'alt') ?? ''))) shown++;
      continue;
    }
    if (depth + 1 > maxDepth) maxDepth = depth + 1;
    stack.push({ tag: tagName, start, shownBefore: shown });
    pushChildren(node, depth + 1);
  }
  return { html: parts.join(''), depth: maxDepth };
}

/**
 * For input nested deeper than any real email, html-to-text's recursive walk is slow or overflows the
 * stack; this iterative walk over the already-parsed tree gives the plain essentials instead.
 */
function simpleText(context: ReportContext): string {
  const body = context.doc.body;
  if (!body) return '';
  const parts: string[] = [];
  const stack: (HtmlNode | string)[] = [...childrenOf(body)].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    if (isText(item)) parts.push(item.value.replace(/\s+/g, ' '));
    if (!isElement(item) || isSkipped(context, item)) continue;
    if (item.tagName === 'img') {
      parts.push(getAttribute(item, 'alt') ?? '');
      continue;
    }
    const block = BLOCK_TAGS.has(item.tagName);
    const href = item.tagName === 'a' ? getAttribute(item, 'href') : undefined;
    if (block) parts.push('\n');
    if (href && /^https?:/i.test(href)) stack.push(` <${href}>`);
    if (block) stack.push('\n');
    const children = childrenOf(item);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return parts.join('');
}

export function buildPlainText(context: ReportContext): PlainTextReport {
  const { html, depth } = visibleBodyHtml(context);
  const simplified = depth > PLAIN_TEXT_MAX_DEPTH;
  const converted = simplified ? simpleText(context) : toText(html);
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
