/**
 * The reports' view of the engine's one parse (`ParsedEmail`): positions, excerpts and text helpers over
 * the same parse5 nodes the analysis core walks. Nothing is copied into a second tree. Walks are
 * iterative, so a hostile nesting depth cannot overflow the stack.
 */
import { HtmlElement, HtmlNode, HtmlParentNode, childrenOf, getAttribute, isElement, isText } from '../../parse/dom';
import { ParsedEmail, elementNumber } from '../../parse/parse-email';
import type { SourcePosition } from './report-issue';
import { collapseRuns } from './text-utils';

interface Location {
  startLine: number;
  startCol: number;
  startOffset: number;
  endOffset: number;
  startTag?: { startLine: number; startCol: number; startOffset: number; endOffset: number };
  endTag?: { endOffset: number };
  attrs?: Record<string, { startOffset: number }>;
}

function locationOf(node: HtmlNode): Location | undefined {
  return (node as { sourceCodeLocation?: Location | null }).sourceCodeLocation ?? undefined;
}

/** Offset of the start tag in the source; -1 when the parser implied the element. */
export function startOffsetOf(element: HtmlElement): number {
  const location = locationOf(element);
  return location?.startTag?.startOffset ?? location?.startOffset ?? -1;
}

/** Offset just after the start tag; -1 when unknown. */
export function startTagEndOf(element: HtmlElement): number {
  const location = locationOf(element);
  return location?.startTag?.endOffset ?? location?.endOffset ?? -1;
}

/** Offset just after the end tag; -1 when the source has no end tag for it. */
export function endOffsetOf(element: HtmlElement): number {
  return locationOf(element)?.endTag?.endOffset ?? -1;
}

/** Source offset of a text or comment node, or of an attribute of an element; -1 when unknown. */
export function nodeOffset(node: HtmlNode): number {
  return locationOf(node)?.startOffset ?? -1;
}

export function attributeOffset(element: HtmlElement, name: string): number {
  const location = locationOf(element);
  return location?.attrs?.[name]?.startOffset ?? location?.startTag?.startOffset ?? location?.startOffset ?? -1;
}

export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'center',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'img',
  'button',
]);

const NON_TEXT_TAGS: ReadonlySet<string> = new Set(['script', 'style', 'template', 'noscript', 'head', 'title']);
/** Elements whose content is code, never text: not even when asked for their own text content. */
const CODE_TAGS: ReadonlySet<string> = new Set(['script', 'style']);

/**
 * Text under an element in document order. `skip` prunes subtrees (hidden elements); block-level
 * boundaries become a space so words of adjacent cells do not run together. The CSS of a `<style>` and the
 * code of a `<script>` are never text, wherever they stand (a `<style>` in the body is common).
 */
export function textContent(element: HtmlElement, skip?: (element: HtmlElement) => boolean): string {
  if (CODE_TAGS.has(element.tagName)) return '';
  let text = '';
  const stack: HtmlNode[] = [];
  const children = childrenOf(element);
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  while (stack.length > 0) {
    const node = stack.pop() as HtmlNode;
    if (isText(node)) text += node.value;
    else if (isElement(node)) {
      if (NON_TEXT_TAGS.has(node.tagName) || (skip && skip(node))) continue;
      if (BLOCK_TAGS.has(node.tagName)) text += ' ';
      const nested = childrenOf(node);
      for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i]);
    }
  }
  return text;
}

/** The element's own text children joined (nested elements become a space). */
export function ownText(element: HtmlElement): string {
  let text = '';
  for (const child of childrenOf(element)) text += isText(child) ? child.value : ' ';
  return text;
}

const NOT_SPACE = /\S/;

export function hasOwnText(element: HtmlElement): boolean {
  for (const child of childrenOf(element)) if (isText(child) && NOT_SPACE.test(child.value)) return true;
  return false;
}

/** Class tokens of an element. */
export function classList(element: HtmlElement): string[] {
  const value = getAttribute(element, 'class');
  if (!value) return [];
  return value.split(/[\t\n\f\r ]+/).filter((token) => token.length > 0);
}

/** Whether any element below `element` has this tag (a nested `stopAt` element's subtree is skipped). */
export function hasDescendant(element: HtmlElement, tag: string, stopAt?: string): boolean {
  const stack: HtmlNode[] = [...childrenOf(element)];
  while (stack.length > 0) {
    const node = stack.pop() as HtmlNode;
    if (!isElement(node)) continue;
    if (stopAt !== undefined && node.tagName === stopAt) continue;
    if (node.tagName === tag) return true;
    stack.push(...childrenOf(node));
  }
  return false;
}

/** Elements under `root` (excluded) in document order. */
export function descendantsOf(root: HtmlParentNode): HtmlElement[] {
  const found: HtmlElement[] = [];
  const stack: HtmlNode[] = [];
  const children = childrenOf(root);
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  while (stack.length > 0) {
    const node = stack.pop() as HtmlNode;
    if (!isElement(node)) continue;
    found.push(node);
    const nested = childrenOf(node);
    for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i]);
  }
  return found;
}

/**
 * A per-element result array, filled with undefined up front: an empty array written at scattered
 * indexes becomes holey (or, far past its length, a dictionary), and every later read pays for it.
 */
export function perElement<T>(count: number): Array<T | undefined> {
  return new Array<T | undefined>(count).fill(undefined);
}

/**
 * Dense numbers for the document's elements (document order) and each one's parent, so per-element
 * results live in arrays instead of Maps keyed by element.
 */
export class ElementIndex {
  /** Index of each element's parent element; -1 when it has none. Parents come before their children. */
  readonly parent: Int32Array;
  /**
   * Index of each element's last descendant (itself when it has none). Elements are numbered in document
   * order, so a subtree is the range [i, end[i]] and a walk can skip one without looking anything up.
   */
  readonly end: Int32Array;

  /**
   * `elements` and `parents` are `ParsedEmail.elements` and `.elementParents`: the parse numbered each
   * element with its position there and noted its parent's, so nothing here reads the elements.
   */
  constructor(
    readonly elements: readonly HtmlElement[],
    parents: readonly number[],
  ) {
    this.parent = Int32Array.from(parents);
    this.end = new Int32Array(elements.length);
    for (let i = 0; i < elements.length; i++) this.end[i] = i;
    for (let i = elements.length - 1; i > 0; i--) {
      const parent = this.parent[i];
      if (parent !== -1 && this.end[i] > this.end[parent]) this.end[parent] = this.end[i];
    }
  }

  of(element: HtmlElement): number {
    const number = elementNumber(element);
    if (number === undefined || this.elements[number] !== element) throw new Error('element of another document');
    return number;
  }

  /**
   * An inherited value from the nearest computed ancestor downwards, iteratively, so that a hostile
   * nesting depth cannot overflow the call stack. `cache[i] === undefined` means not computed. `parents`
   * may skip ancestors that pass the value on unchanged (each entry an ancestor, -1 above the root).
   * `compute` is one function shared by every owner (a static method), called with the owner: a closure
   * per owner stored in a field made V8 keep every analysis's objects alive through scavenges (see
   * docs/reports.md, "Cost").
   */
  resolveDown<T, O>(
    owner: O,
    cache: Array<T | undefined>,
    index: number,
    rootValue: T,
    compute: (owner: O, index: number, parentValue: T) => T,
    parents: Int32Array = this.parent,
  ): T {
    const known = cache[index];
    if (known !== undefined) return known;
    // Walks in document order find the parent computed: no chain to build.
    const parent = parents[index];
    const parentValue = parent === -1 ? rootValue : cache[parent];
    if (parentValue !== undefined) {
      const value = compute(owner, index, parentValue);
      cache[index] = value;
      return value;
    }
    const chain: number[] = [];
    let current = index;
    while (current !== -1 && cache[current] === undefined) {
      chain.push(current);
      current = parents[current];
    }
    let value = current === -1 ? rootValue : (cache[current] as T);
    for (let i = chain.length - 1; i >= 0; i--) {
      value = compute(owner, chain[i], value);
      cache[chain[i]] = value;
    }
    return value;
  }
}

export class ReportDocument {
  readonly source: string;
  readonly htmlElement: HtmlElement | null;
  readonly head: HtmlElement | null;
  readonly body: HtmlElement | null;
  private lineStarts: number[] | undefined;
  private anchorNameSet: Set<string> | undefined;
  private bodyElementList: HtmlElement[] | undefined;
  readonly index: ElementIndex;

  constructor(readonly parsed: ParsedEmail) {
    this.index = new ElementIndex(parsed.elements, parsed.elementParents);
    this.source = parsed.source;
    this.htmlElement = this.byTag('html')[0] ?? null;
    this.head = this.byTag('head')[0] ?? null;
    this.body = this.byTag('body')[0] ?? null;
  }

  byTag(tag: string): readonly HtmlElement[] {
    return this.parsed.elementsByTag.get(tag) ?? [];
  }

  hasId(id: string): boolean {
    return this.parsed.elementsById.has(id);
  }

  /** `<a name>` targets, which fragment links also reach. */
  hasAnchorName(name: string): boolean {
    if (!this.anchorNameSet) {
      this.anchorNameSet = new Set();
      for (const anchor of this.byTag('a')) {
        const anchorName = getAttribute(anchor, 'name');
        if (anchorName) this.anchorNameSet.add(anchorName);
      }
    }
    return this.anchorNameSet.has(name);
  }

  /** Elements inside `<body>`, in document order. */
  bodyElements(): readonly HtmlElement[] {
    this.bodyElementList ??= this.body ? descendantsOf(this.body) : [];
    return this.bodyElementList;
  }

  /** 1-based line and column of a source offset; empty when the offset is unknown. */
  positionAt(offset: number): SourcePosition {
    if (offset < 0) return {};
    if (!this.lineStarts) {
      const starts = [0];
      let at = this.source.indexOf('\n');
      while (at !== -1) {
        starts.push(at + 1);
        at = this.source.indexOf('\n', at + 1);
      }
      this.lineStarts = starts;
    }
    const lineStarts = this.lineStarts;
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low] + 1 };
  }

  /** Position of an element's start tag. */
  position(element: HtmlElement): SourcePosition {
    const location = locationOf(element);
    const start = location?.startTag ?? location;
    return start ? { line: start.startLine, column: start.startCol } : {};
  }

  private readonly excerpts = new Map<HtmlElement, string>();

  /** The element's opening tag as written (shortened to 120 characters), for messages and the `element` field. */
  excerpt(element: HtmlElement): string {
    let excerpt = this.excerpts.get(element);
    if (excerpt === undefined) {
      excerpt = this.excerptOf(element, 120);
      this.excerpts.set(element, excerpt);
    }
    return excerpt;
  }

  private excerptOf(element: HtmlElement, maxLength: number): string {
    const start = startOffsetOf(element);
    const end = startTagEndOf(element);
    let excerpt = start >= 0 && end > start ? this.source.slice(start, Math.min(end, start + maxLength + 1)) : `<${element.tagName}>`;
    excerpt = collapseRuns(excerpt);
    return excerpt.length > maxLength ? `${excerpt.slice(0, maxLength - 1)}…` : excerpt;
  }

  /** Position and excerpt together, the usual `where` of an issue. */
  at(element: HtmlElement): SourcePosition & { element: string } {
    // The fields of position() and the excerpt in one object (no intermediate to spread).
    const location = locationOf(element);
    const start = location?.startTag ?? location;
    return start ? { line: start.startLine, column: start.startCol, element: this.excerpt(element) } : { element: this.excerpt(element) };
  }
}
