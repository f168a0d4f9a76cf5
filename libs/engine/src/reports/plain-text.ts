/**
 * A readable text/plain alternative, generated with html-to-text: links as "text <url>", headings and
 * lists on their own lines, images as their alt text. html-to-text parses HTML itself, so it gets a
 * small input written from the engine's tree: the visible body only (hidden elements such as the
 * preheader, mobile-only copies and tracking pixels left out), the elements and attributes its formatters
 * read, and every other element unwrapped (html-to-text formats them inline, as if they were not there).
 * The converter is compiled once, not per email.
 */
import { compile, type HtmlToTextOptions } from 'html-to-text';
import { HtmlElement, HtmlNode, childrenOf, getAttribute, isElement, isText } from '../parse/dom';
import { BODY_BLANK_TEXT, BODY_CLOSE, BODY_TEXT } from './context/contrast-check';
import type { ReportContext } from './context/report-context';
import { BLOCK_TAGS } from './context/report-document';
import { sortIssues, type ReportIssue } from './context/report-issue';

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

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
/** html-to-text walks the tree recursively; real emails nest well under this, hostile input far deeper. */
export const PLAIN_TEXT_MAX_DEPTH = 200;

/**
 * Plain blocks: html-to-text opens each with some leading line breaks and closes it with some trailing
 * ones, and does nothing else to it (no prefix, no transform, no wrapping width of its own). Its defaults
 * (div and the sectioning tags 1/1, p 2/2), and ours: headings 2/1 (in case), table rows and tables 1/2,
 * cells 1/1; a table before a caption keeps html-to-text's 2/2.
 */
type Breaks = readonly [leading: 1 | 2, trailing: 1 | 2];
const PLAIN_BLOCKS: Readonly<Record<string, Breaks>> = {
  div: [1, 1],
  article: [1, 1],
  aside: [1, 1],
  footer: [1, 1],
  form: [1, 1],
  header: [1, 1],
  main: [1, 1],
  nav: [1, 1],
  section: [1, 1],
  td: [1, 1],
  th: [1, 1],
  tr: [1, 2],
  table: [1, 2],
  p: [2, 2],
  ...Object.fromEntries(HEADINGS.map((tag) => [tag, [2, 1] as const])),
};
const TABLE_BEFORE_CAPTION: Breaks = [2, 2];

/**
 * Every plain block is written as one of four generic tags, `x<leading><trailing>`, which html-to-text
 * formats as such a block. A block that holds only other blocks can then be left out exactly: html-to-text
 * gives a block whose text starts with a child block that child's leading breaks, and ends it with the
 * larger of its own trailing breaks and its last child's, so the wrapper's trailing breaks move onto its
 * last block. Layout tables nest cell in row in table many times over; this way html-to-text, whose
 * per-element cost is most of what the plain text costs, sees only the blocks that hold text. (As
 * generic tags, table parts also escape htmlparser2's table rules, which close an open cell at a row.)
 */
const genericTag = (leading: number, trailing: number): string => `x${leading}${trailing}`;
const GENERIC_BLOCK_SELECTORS = [1, 2].flatMap((leading) =>
  [1, 2].map((trailing) => ({
    selector: genericTag(leading, trailing),
    format: 'block',
    options: { leadingLineBreaks: leading, trailingLineBreaks: trailing },
  })),
);

/** Other blocks html-to-text formats, with the trailing breaks each ends with at least (lists nested in a list item end with 1). */
const OTHER_BLOCK_TRAILING: Readonly<Record<string, number>> = { ul: 1, ol: 1, blockquote: 2, pre: 2 };

const OPTIONS: HtmlToTextOptions = {
  wordwrap: PLAIN_TEXT_WRAP,
  // One level more for the <body> the input is wrapped in (see buildPlainText).
  limits: { maxDepth: PLAIN_TEXT_MAX_DEPTH + 1 },
  selectors: [
    { selector: 'a', options: { linkBrackets: ['<', '>'], hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    ...GENERIC_BLOCK_SELECTORS,
    { selector: 'hr', options: { length: 20 } },
  ],
};

const toText = compile(OPTIONS);

/** Elements html-to-text formats (everything else it treats as inline), with the attributes it reads. */
const KEPT: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  ol: ['start', 'type'],
  ul: [],
  li: [],
  br: [],
  hr: [],
  wbr: [],
  pre: [],
  blockquote: [],
  ...Object.fromEntries(Object.keys(PLAIN_BLOCKS).map((tag) => [tag, []])),
};
const VOID = new Set(['br', 'hr', 'wbr']);
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
const DROPPED_WHEN_EMPTY = new Set(['li', 'ul', 'ol', 'blockquote', 'pre', ...Object.keys(PLAIN_BLOCKS)]);

/** A block written to the output: where its tags are, and its breaks (a generic block's trailing ones may still grow). */
interface WrittenBlock {
  generic: boolean;
  start: number;
  end: number;
  leading: number;
  trailing: number;
}

/** An element written to the output and not yet closed. */
interface OpenElement {
  /** Its number in the document. */
  element: number;
  tag: string;
  /** A plain block's breaks; null for the other kept elements. */
  breaks: Breaks | null;
  /** Index in `parts` of its start tag. */
  start: number;
  /** Count of showing content written before it opened. */
  shownBefore: number;
  /** Whether text or inline content sits directly inside (left-out wrappers pass on their blocks, not this). */
  inlineContent: boolean;
  /** The last block written inside it, directly or through left-out wrappers. */
  lastBlock: WrittenBlock | null;
}

/** visibleBodyHtml's output as it is written, and the elements still open. */
interface BodyHtmlWriter {
  parts: string[];
  /** Count of showing content written so far. */
  shown: number;
  /** How deeply the kept elements nest. */
  maxDepth: number;
  /** `<pre>` elements open: white space inside them is written as it is. */
  preDepth: number;
  open: OpenElement[];
  /**
   * Whether the output so far ends at a plain block's boundary (or is empty): html-to-text drops white
   * space there (a block starts and ends without it), so indentation between blocks need not be written.
   */
  atBlockBoundary: boolean;
}

function markInline(writer: BodyHtmlWriter): void {
  if (writer.open.length > 0) writer.open[writer.open.length - 1].inlineContent = true;
}

/** Kept blocks drop the space written just before them and the one just inside their end. */
function dropSpaceAt(parts: string[], at: number): void {
  if (at >= 0 && parts[at] === ' ') parts[at] = '';
}

/**
 * The visible body as minimal HTML, and how deeply its kept elements nest. Blocks with nothing that
 * shows are left out, so spacer cells do not become blank lines; plain blocks that only wrap other
 * blocks are left out where html-to-text prints the same (see genericTag). It reads the body as the
 * visible-text walk recorded it (context.visibleBody: hidden subtrees already out), not the tree.
 */
function visibleBodyHtml(context: ReportContext): { html: string; depth: number } {
  if (!context.doc.body) return { html: '', depth: 0 };
  const { kinds, refs, closeAt } = context.visibleBody;
  const captions = context.doc.byTag('caption').length > 0;
  const writer: BodyHtmlWriter = { parts: [], shown: 0, maxDepth: 0, preDepth: 0, open: [], atBlockBoundary: true };
  for (let entry = 0; entry < kinds.length; entry++) {
    const kind = kinds[entry];
    if (kind === BODY_CLOSE) closeElement(writer, refs[entry] as number);
    else if (kind === BODY_BLANK_TEXT || kind === BODY_TEXT) writeText(writer, kind, refs[entry] as string);
    else {
      const current = refs[entry] as number;
      // Skipped, or written whole: its subtree is done.
      if (!openElement(writer, context, current, captions)) entry = closeAt[current];
    }
  }
  return { html: writer.parts.join(''), depth: writer.maxDepth };
}

function writeText(writer: BodyHtmlWriter, kind: number, text: string): void {
  // Most text nodes are indentation between tags: one space says the same to html-to-text.
  if (writer.preDepth === 0 && kind === BODY_BLANK_TEXT) {
    if (!writer.atBlockBoundary) writer.parts.push(' ');
    return;
  }
  writer.atBlockBoundary = false;
  // html-to-text collapses white space itself (outside <pre>): collapsing it here first keeps its input small.
  const value = writer.preDepth > 0 ? text : text.replace(ASCII_SPACE_RUN, ' ');
  writer.parts.push(escapeText(value));
  if (SHOWS.test(value)) {
    writer.shown++;
    markInline(writer);
  }
}

/**
 * Writes an element's start (a plain block's generic tag waits for its end); false when its subtree is
 * done already: skipped, an image written as its alt text, or a void element.
 */
function openElement(writer: BodyHtmlWriter, context: ReportContext, current: number, captions: boolean): boolean {
  const node = context.doc.index.elements[current];
  if (isSkipped(context, node, current)) return false;
  const { parts } = writer;
  const tagName = node.tagName;
  if (tagName === 'img') {
    // An image prints its alt text (not a 1×1 tracking pixel's): written as text, one element fewer to format.
    const alt = imageAltText(getAttribute(node, 'alt'), getAttribute(node, 'width'), getAttribute(node, 'height'));
    if (alt) {
      parts.push(escapeText(alt));
      writer.atBlockBoundary = false;
      writer.shown++;
      markInline(writer);
    }
    return false;
  }
  const kept = KEPT[tagName];
  // A link without a destination a reader could use (no href, javascript:, data:) prints only its content.
  if (!kept || (tagName === 'a' && !isReadableHref(getAttribute(node, 'href')))) return true;
  const start = parts.length;
  const breaks = tagName === 'table' && captions ? TABLE_BEFORE_CAPTION : (PLAIN_BLOCKS[tagName] ?? null);
  writer.atBlockBoundary = breaks !== null;
  if (breaks !== null)
    parts.push(''); // the generic tag is written when the block closes
  else parts.push(startTag(node, tagName, kept));
  // A link prints its URL even without text (an image link without alt), so it shows.
  if (tagName === 'a' && SHOWS.test(getAttribute(node, 'href') ?? '')) writer.shown++;
  if (VOID.has(tagName)) {
    if (tagName === 'hr') writer.shown++;
    markInline(writer);
    return false;
  }
  const { open } = writer;
  if (open.length + 1 > writer.maxDepth) writer.maxDepth = open.length + 1;
  if (tagName === 'pre') writer.preDepth++;
  open.push({ element: current, tag: tagName, breaks, start, shownBefore: writer.shown, inlineContent: false, lastBlock: null });
  return true;
}

/** A kept element's start tag with the attributes html-to-text reads. */
function startTag(node: HtmlElement, tagName: string, kept: readonly string[]): string {
  let tag = `<${tagName}`;
  for (const name of kept) {
    const value = getAttribute(node, name);
    if (value !== undefined) tag += ` ${name}="${escapeAttribute(value)}"`;
  }
  return `${tag}>`;
}

function closeElement(writer: BodyHtmlWriter, elementNumber: number): void {
  const { open, parts } = writer;
  // Only elements written to the output were opened; others (unwrapped, void) close silently.
  if (open.length === 0 || open[open.length - 1].element !== elementNumber) return;
  const element = open.pop()!;
  if (element.tag === 'pre') writer.preDepth--;
  const parent = open.length > 0 ? open[open.length - 1] : null;
  if (DROPPED_WHEN_EMPTY.has(element.tag) && writer.shown === element.shownBefore) {
    parts.length = element.start;
    writer.atBlockBoundary = false;
    return;
  }
  if (element.breaks === null) {
    writer.atBlockBoundary = false;
    parts.push(`</${element.tag}>`);
    if (!parent) return;
    const trailing = OTHER_BLOCK_TRAILING[element.tag];
    if (trailing === undefined) parent.inlineContent = true;
    else parent.lastBlock = { generic: false, start: element.start, end: parts.length - 1, leading: 0, trailing };
    return;
  }
  closePlainBlock(writer, element, element.breaks, parent);
}

/** Closes a plain block: written as a generic block, or left out when it only wraps other blocks. */
function closePlainBlock(writer: BodyHtmlWriter, element: OpenElement, [leading, trailing]: Breaks, parent: OpenElement | null): void {
  const { parts } = writer;
  dropSpaceAt(parts, element.start - 1);
  dropSpaceAt(parts, parts.length - 1);
  writer.atBlockBoundary = true;
  const last = element.lastBlock;
  if (!element.inlineContent && last !== null && (last.trailing >= trailing || last.generic)) {
    // A wrapper of blocks only: left out, its trailing breaks carried by its last block.
    if (last.trailing < trailing) {
      last.trailing = trailing;
      parts[last.start] = `<${genericTag(last.leading, trailing)}>`;
      parts[last.end] = `</${genericTag(last.leading, trailing)}>`;
    }
    parts[element.start] = '';
    if (parent) parent.lastBlock = last;
    return;
  }
  const tag = genericTag(leading, trailing);
  parts[element.start] = `<${tag}>`;
  parts.push(`</${tag}>`);
  if (parent) parent.lastBlock = { generic: true, start: element.start, end: parts.length - 1, leading, trailing };
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
  const converted = simplified ? simpleText(context) : toText(wrapped);
  // Trailing white space off every line, at most one blank line in a row.
  const text = converted
    .replace(TRAILING_SPACE, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const warnings: ReportIssue[] = [];
  if (simplified) {
    warnings.push({
      rule: 'plain-text-simplified',
      severity: 'info',
      message: `The HTML nests more than ${PLAIN_TEXT_MAX_DEPTH} elements deep, so the text version was generated without layout formatting.`,
    });
  }
  const contentImages = context.images.filter((image) => !image.isTrackingPixel && !image.hidden && image.kind !== 'background').length;
  if (text.length === 0) {
    warnings.push({
      rule: 'plain-text-empty',
      severity: 'warning',
      message: 'The email has no text, so the text/plain part is empty; filters and text-only readers see nothing.',
    });
  } else if (text.length < 100 && contentImages > 0) {
    warnings.push({
      rule: 'plain-text-short',
      severity: 'info',
      message: `The text version is only ${text.length} characters: most of the content is in images.`,
    });
  }
  return { text, length: text.length, lines: text === '' ? 0 : text.split('\n').length, warnings: sortIssues(warnings) };
}
