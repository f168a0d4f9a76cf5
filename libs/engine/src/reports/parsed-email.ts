/**
 * The email parsed once (parse5 with source positions) into a small tree every report walks.
 * Walks are iterative, never recursive, so a hostile nesting depth cannot overflow the stack.
 */
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import type { SourcePosition } from './report-issue';
import { parseStyleSheets, type StyleSheet } from './style-sheet';

type P5Node = DefaultTreeAdapterTypes.Node;
type P5Element = DefaultTreeAdapterTypes.Element;

export interface EmailText {
  kind: 'text';
  value: string;
  parent: EmailElement;
  offset: number;
}

export interface EmailComment {
  kind: 'comment';
  data: string;
  parent: EmailElement;
  /** Offset of `<!--` in the source; -1 when unknown. */
  offset: number;
}

export interface EmailElement {
  kind: 'element';
  tag: string;
  attrs: ReadonlyMap<string, string>;
  parent: EmailElement | null;
  children: EmailNode[];
  /** Position in document order, 0 for the synthetic document root. */
  index: number;
  /** Offsets of the start tag in the source; -1 when the parser implied the element. */
  startOffset: number;
  startTagEndOffset: number;
  /** Offset just after the end tag; -1 when the source has no end tag for it. */
  endOffset: number;
  attrOffsets: ReadonlyMap<string, number>;
}

export type EmailNode = EmailElement | EmailText | EmailComment;

export interface ParsedEmail {
  html: string;
  root: EmailElement;
  /** Every element in document order (root excluded). */
  elements: EmailElement[];
  comments: EmailComment[];
  html_: EmailElement | null;
  head: EmailElement | null;
  body: EmailElement | null;
  ids: ReadonlySet<string>;
  /** Deepest element nesting; hostile input can nest far deeper than any real email. */
  maxDepth: number;
  /** `<a name>` targets, which fragment links also reach. */
  anchorNames: ReadonlySet<string>;
  styleSheet: StyleSheet;
  positionAt(offset: number): SourcePosition;
  byTag(tag: string): EmailElement[];
}

const NO_ATTRS: ReadonlyMap<string, string> = new Map();

function toElement(node: P5Element, parent: EmailElement | null, index: number): EmailElement {
  const location = node.sourceCodeLocation;
  const attrs = new Map<string, string>();
  for (const attr of node.attrs) {
    const name = attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
    if (!attrs.has(name)) attrs.set(name, attr.value);
  }
  const attrOffsets = new Map<string, number>();
  if (location?.attrs) {
    for (const [name, attrLocation] of Object.entries(location.attrs)) attrOffsets.set(name, attrLocation.startOffset);
  }
  return {
    kind: 'element',
    tag: node.tagName,
    attrs: attrs.size > 0 ? attrs : NO_ATTRS,
    parent,
    children: [],
    index,
    startOffset: location?.startTag?.startOffset ?? location?.startOffset ?? -1,
    startTagEndOffset: location?.startTag?.endOffset ?? location?.endOffset ?? -1,
    endOffset: location?.endTag ? location.endTag.endOffset : -1,
    attrOffsets,
  };
}

function lineStartsOf(html: string): number[] {
  const starts = [0];
  let at = html.indexOf('\n');
  while (at !== -1) {
    starts.push(at + 1);
    at = html.indexOf('\n', at + 1);
  }
  return starts;
}

function childNodesOf(node: P5Node): readonly P5Node[] {
  if (node.nodeName === 'template') return (node as DefaultTreeAdapterTypes.Template).content.childNodes;
  return 'childNodes' in node ? node.childNodes : [];
}

/**
 * Parses the email, or adopts a parse5 document of the same `html` already parsed with
 * `sourceCodeLocationInfo` (the engine's own parse), which is read and never mutated.
 */
export function parseEmail(html: string, parsedDocument?: DefaultTreeAdapterTypes.Document): ParsedEmail {
  const document = parsedDocument ?? parse(html, { sourceCodeLocationInfo: true });
  const root: EmailElement = {
    kind: 'element',
    tag: '#document',
    attrs: NO_ATTRS,
    parent: null,
    children: [],
    index: 0,
    startOffset: -1,
    startTagEndOffset: -1,
    endOffset: -1,
    attrOffsets: new Map(),
  };
  const elements: EmailElement[] = [];
  const comments: EmailComment[] = [];
  const ids = new Set<string>();
  const anchorNames = new Set<string>();
  const tagIndex = new Map<string, EmailElement[]>();

  // Depth-first, document order: push children reversed so the first child is visited first.
  const stack: { node: P5Node; parent: EmailElement; depth: number }[] = [];
  let maxDepth = 0;
  const pushChildren = (node: P5Node, parent: EmailElement, depth: number): void => {
    const children = childNodesOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], parent, depth });
  };
  pushChildren(document, root, 1);
  while (stack.length > 0) {
    const { node, parent, depth } = stack.pop()!;
    if (node.nodeName === '#text') {
      const text = node as DefaultTreeAdapterTypes.TextNode;
      parent.children.push({ kind: 'text', value: text.value, parent, offset: text.sourceCodeLocation?.startOffset ?? -1 });
    } else if (node.nodeName === '#comment') {
      const comment = node as DefaultTreeAdapterTypes.CommentNode;
      const emailComment: EmailComment = {
        kind: 'comment',
        data: comment.data,
        parent,
        offset: comment.sourceCodeLocation?.startOffset ?? -1,
      };
      parent.children.push(emailComment);
      comments.push(emailComment);
    } else if ('tagName' in node) {
      const element = toElement(node, parent, elements.length + 1);
      parent.children.push(element);
      elements.push(element);
      const sameTag = tagIndex.get(element.tag);
      if (sameTag) sameTag.push(element);
      else tagIndex.set(element.tag, [element]);
      const id = element.attrs.get('id');
      if (id) ids.add(id);
      const name = element.attrs.get('name');
      if (name && element.tag === 'a') anchorNames.add(name);
      if (depth > maxDepth) maxDepth = depth;
      pushChildren(node, element, depth + 1);
    }
  }

  const lineStarts = lineStartsOf(html);
  const positionAt = (offset: number): SourcePosition => {
    if (offset < 0) return {};
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low] + 1 };
  };
  const byTag = (tag: string): EmailElement[] => tagIndex.get(tag) ?? [];
  const first = (tag: string): EmailElement | null => byTag(tag)[0] ?? null;

  const parsed: ParsedEmail = {
    html,
    root,
    elements,
    comments,
    html_: first('html'),
    head: first('head'),
    body: first('body'),
    ids,
    maxDepth,
    anchorNames,
    styleSheet: { rules: [], byKey: new Map(), universal: [], blocks: [] },
    positionAt,
    byTag,
  };
  parsed.styleSheet = parseStyleSheets(parsed);
  return parsed;
}

/** Source position of an element's start tag. */
export function elementPosition(parsed: ParsedEmail, element: EmailElement): SourcePosition {
  return parsed.positionAt(element.startOffset);
}

/** The element's opening tag as written (shortened), for messages and the `element` field. */
export function elementExcerpt(parsed: ParsedEmail, element: EmailElement, maxLength = 120): string {
  let excerpt: string;
  if (element.startOffset >= 0 && element.startTagEndOffset > element.startOffset) {
    excerpt = parsed.html.slice(element.startOffset, Math.min(element.startTagEndOffset, element.startOffset + maxLength + 1));
  } else {
    excerpt = `<${element.tag}>`;
  }
  excerpt = excerpt.replace(/\s+/g, ' ');
  return excerpt.length > maxLength ? `${excerpt.slice(0, maxLength - 1)}…` : excerpt;
}

/** Elements under `element` (excluded) in document order. */
export function descendants(element: EmailElement): EmailElement[] {
  const found: EmailElement[] = [];
  const stack: EmailNode[] = [];
  for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i]);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind !== 'element') continue;
    found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return found;
}

const NON_TEXT_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'title']);

/**
 * Text under an element in document order. `skip` prunes subtrees (hidden elements); `separator`
 * goes between block-level boundaries so words of adjacent cells do not run together.
 */
export function textContent(element: EmailElement, skip?: (element: EmailElement) => boolean): string {
  const parts: string[] = [];
  const stack: EmailNode[] = [];
  for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i]);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'text') parts.push(node.value);
    else if (node.kind === 'element') {
      if (NON_TEXT_TAGS.has(node.tag) || (skip && skip(node))) continue;
      if (BLOCK_TAGS.has(node.tag)) parts.push(' ');
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    }
  }
  return parts.join('');
}

export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'center', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'img', 'button',
]);

/** Lower-cased class tokens of an element. */
export function classList(element: EmailElement): string[] {
  const value = element.attrs.get('class');
  if (!value) return [];
  return value.split(/[\t\n\f\r ]+/).filter((token) => token.length > 0);
}
