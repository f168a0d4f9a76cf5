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

/** An image's text: its alt, unless it is empty or the image is a 1×1 tracking pixel. */
function imageAltText(alt: string | undefined, width: string | undefined, height: string | undefined): string {
  const text = (alt ?? '').trim();
  return text && !(Number.parseFloat(width ?? '') <= 1 && Number.parseFloat(height ?? '') <= 1) ? text : '';
}

const altTextFormatter: FormatCallback = (element, _walk, builder) => {
  const attributes = (element as { attribs?: Record<string, string> }).attribs ?? {};
  const alt = imageAltText(attributes.alt, attributes.width, attributes.height);
  if (alt) builder.addInline(alt);
};

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
/** html-to-text walks the tree recursively; real emails nest well under this, hostile input far deeper. */
export const PLAIN_TEXT_MAX_DEPTH = 200;

const OPTIONS: HtmlToTextOptions = {
  wordwrap: PLAIN_TEXT_WRAP,
  // One level more for the <body> the input is wrapped in (see buildPlainText).
  limits: { maxDepth: PLAIN_TEXT_MAX_DEPTH + 1 },
  formatters: { altText: altTextFormatter },
  selectors: [
    { selector: 'a', options: { linkBrackets: ['<', '>'], hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    { selector: 'img', format: 'altText' },
    ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false, leadingLineBreaks: 2, trailingLineBreaks: 1 } })),
    // A table starts with a row (whose leading break wins), except before a caption: 1 prints the same as
    // the default 2 and lets a lone row be left out. Emails with captions use the default (CAPTION_OPTIONS).
    { selector: 'table', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 2 } },
    // A row always starts with a cell, whose leading break wins (html-to-text lets a block's first block
    // child set its leading breaks), so 1 prints the same as the default 2 and lets a lone cell be left out.
    { selector: 'tr', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 2 } },
    { selector: 'td', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'th', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
    { selector: 'hr', options: { length: 20 } },
  ],
};

const toText = compile(OPTIONS);
const CAPTION_OPTIONS: HtmlToTextOptions = {
  ...OPTIONS,
  selectors: OPTIONS.selectors!.map((selector) => (selector.selector === 'table' ? { selector: 'table', format: 'block' } : selector)),
};
const toTextWithCaptions = compile(CAPTION_OPTIONS);

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
const TRAILING_SPACE = /[^\S\n]+(?=\n|$)/g;
/** Runs of the white space html-to-text collapses anyway (its list: space, tab, CR, LF, FF). */
const ASCII_SPACE_RUN = /[ \t\r\n\f]{2,}|[\t\r\n\f]/g;

const SCRIPT_OR_DATA_URL = /^\s*(javascript|vbscript|data):/i;

function isReadableHref(href: string | undefined): boolean {
  return href !== undefined && !SCRIPT_OR_DATA_URL.test(href);
}

function escapeText(text: string): string {
  return TEXT_SPECIALS.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

function isSkipped(context: ReportContext, element: HtmlElement, index = context.doc.index.of(element)): boolean {
  return NOT_TEXT.has(element.tagName) || context.styles.hiddenAt(index) !== null || getAttribute(element, 'data-skip-in-text') === 'true';
}

/** Text that shows: anything but white space (no-break spaces and zero-width spaces included). */
const SHOWS = /[^\s\u200b]/;
/** Kept elements that are left out when nothing inside them shows (spacer cells, empty paragraphs). */
const DROPPED_WHEN_EMPTY = new Set(['div', 'p', 'table', 'tr', 'td', 'th', 'li', 'ul', 'ol', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'article', 'aside', 'footer', 'form', 'header', 'main', 'nav', 'section']);

/**
 * Line breaks html-to-text puts after each plain block (its defaults, and OPTIONS above). A block whose only
 * content is one other block adopts that block's leading breaks and ends with the larger of the two trailing
 * ones, so a wrapper can be left out when its child's trailing breaks are at least its own: layout tables
 * nest cell in cell in cell, and html-to-text's per-element cost is what the plain text costs.
 */
const TRAILING_BREAKS: Readonly<Record<string, number>> = {
  div: 1, td: 1, th: 1, article: 1, aside: 1, footer: 1, form: 1, header: 1, main: 1, nav: 1, section: 1,
  table: 2, tr: 2, p: 2, h1: 1, h2: 1, h3: 1, h4: 1, h5: 1, h6: 1,
};
/**
 * Wrappers that may be left out that way (formatted as plain blocks, no prefixes or transforms). Tables
 * and rows stay: htmlparser2 (inside html-to-text) closes an open cell when a row starts, so cells and
 * rows must keep their table structure.
 */
const UNWRAPPABLE = new Set(['div', 'td', 'th', 'article', 'aside', 'footer', 'form', 'header', 'main', 'nav', 'section']);

/** An element written to the output and not yet closed. */
interface OpenElement {
  tag: string;
  /** Index in `parts` of its start tag. */
  start: number;
  /** Count of showing content written before it opened. */
  shownBefore: number;
  /** Kept children written so far (after empty ones were dropped), and whether text or inline content sits directly inside. */
  blockChildren: number;
  lastBlockChild: string;
  inlineContent: boolean;
  /** Where the last kept child's start and end tags were written (a lone cell of a row is left out). */
  lastChildStart: number;
  lastChildEnd: number;
}

/**
 * The visible body as minimal HTML, and how deeply its kept elements nest. Blocks with nothing that
 * shows are left out, so spacer cells do not become blank lines; wrappers of a single block are left out
 * where html-to-text would print the same.
 */
function visibleBodyHtml(context: ReportContext): { html: string; depth: number } {
  const body = context.doc.body;
  if (!body) return { html: '', depth: 0 };
  const parts: string[] = [];
  let shown = 0;
  let maxDepth = 0;
  let preDepth = 0;
  // Nodes to visit, and the open element each closes (CLOSE marks "close the top open element").
  const nodes: Array<HtmlNode | null> = [];
  const open: OpenElement[] = [];
  const pushChildren = (element: HtmlElement): void => {
    const children = childrenOf(element);
    for (let i = children.length - 1; i >= 0; i--) nodes.push(children[i]);
  };
  const markInline = (): void => {
    if (open.length > 0) open[open.length - 1].inlineContent = true;
  };
  const { index } = context.doc;
  const captions = context.doc.byTag('caption').length > 0;
  // Elements are met in document order, so each one's number is the next one (subtrees left out skip a range).
  let next = index.of(body) + 1;
  pushChildren(body);
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    if (node === null) {
      const element = open.pop()!;
      if (element.tag === 'pre') preDepth--;
      const parent = open.length > 0 ? open[open.length - 1] : null;
      if (DROPPED_WHEN_EMPTY.has(element.tag) && shown === element.shownBefore) {
        parts.length = element.start;
        continue;
      }
      const wrapped = element.blockChildren === 1 && !element.inlineContent ? element.lastBlockChild : '';
      if (UNWRAPPABLE.has(element.tag) && wrapped !== '' && (TRAILING_BREAKS[wrapped] ?? 0) >= TRAILING_BREAKS[element.tag]) {
        parts[element.start] = '';
      } else {
        // A row with a single cell: the row (leading 1, trailing 2) prints the same without the cell (1, 1);
        // a table with a single row likewise (not before a caption, where the table's own leading counts).
        const lone = (element.tag === 'tr' && (wrapped === 'td' || wrapped === 'th')) || (element.tag === 'table' && wrapped === 'tr' && !captions);
        if (lone && element.lastChildEnd !== -1) {
          parts[element.lastChildStart] = '';
          parts[element.lastChildEnd] = '';
        }
        parts.push(`</${element.tag}>`);
      }
      if (parent) {
        if (TRAILING_BREAKS[element.tag] !== undefined) {
          parent.blockChildren++;
          // Left out, the element passes on what it wrapped.
          const leftOut = parts[element.start] === '';
          parent.lastBlockChild = leftOut ? wrapped : element.tag;
          parent.lastChildStart = leftOut ? -1 : element.start;
          parent.lastChildEnd = leftOut ? -1 : parts.length - 1;
        } else parent.inlineContent = true;
      }
      continue;
    }
    if (isText(node)) {
      // html-to-text collapses white space itself (outside <pre>): collapsing it here first keeps its input small.
      const value = preDepth > 0 ? node.value : node.value.replace(ASCII_SPACE_RUN, ' ');
      parts.push(escapeText(value));
      if (SHOWS.test(value)) {
        shown++;
        markInline();
      }
      continue;
    }
    if (!isElement(node)) continue;
    const current = index.elements[next] === node ? next : index.of(node);
    if (isSkipped(context, node, current)) {
      next = index.end[current] + 1;
      continue;
    }
    next = current + 1;
    const tagName = node.tagName;
    if (tagName === 'img') {
      // What the alt formatter would add, written as text: one element fewer for html-to-text to format.
      const alt = imageAltText(getAttribute(node, 'alt'), getAttribute(node, 'width'), getAttribute(node, 'height'));
      if (alt) {
        parts.push(escapeText(alt));
        shown++;
        markInline();
      }
      continue;
    }
    const kept = KEPT[tagName];
    // A link without a destination a reader could use (no href, javascript:, data:) prints only its content.
    if (!kept || (tagName === 'a' && !isReadableHref(getAttribute(node, 'href')))) {
      pushChildren(node);
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
      markInline();
      continue;
    }
    if (open.length + 1 > maxDepth) maxDepth = open.length + 1;
    if (tagName === 'pre') preDepth++;
    open.push({ tag: tagName, start, shownBefore: shown, blockChildren: 0, lastBlockChild: '', inlineContent: false, lastChildStart: -1, lastChildEnd: -1 });
    nodes.push(null);
    pushChildren(node);
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
  // Wrapped in <body>, html-to-text's base element, which it then finds at once instead of searching the
  // whole tree for it (and formats inline: as if it were not there).
  const wrapped = `<body>${html}</body>`;
  const converted = simplified ? simpleText(context) : context.doc.byTag('caption').length > 0 ? toTextWithCaptions(wrapped) : toText(wrapped);
  // Trailing white space off every line, at most one blank line in a row.
  const text = converted.replace(TRAILING_SPACE, '').replace(/\n{3,}/g, '\n\n').trim();
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
