import { parse } from 'parse5';
import { utf8Length } from './utf8-length';
import type { Root, Rule } from 'postcss';
import { EngineLimitError } from '../errors';
import { ENGINE_LIMITS } from '../limits';
import { CssDeclaration, cssBraceDepth, parseDeclarationList, parseStylesheet } from './css-syntax';
import { HtmlComment, HtmlDocument, HtmlDocumentType, HtmlElement, HtmlNode, HtmlParentNode, HtmlText, childrenOf, isComment, isElement } from './dom';
import { MatchContext, SelectorLimitCrossed, selectorLimitCrossed } from './css-selector';
import { MaskedTemplateTag, blankTemplateTags, findPrologueTemplateTags } from './template-prologue';

export interface EmailStyleSheet {
  element: HtmlElement;
  text: string;
  root: Root;
  /** Where the CSS text starts in the submitted markup (1-based). */
  line: number;
  column: number;
}

export interface InlineStyle {
  value: string;
  declarations: readonly CssDeclaration[];
  /** Position of the `style` attribute in the submitted markup. */
  line: number;
  column: number;
}

/** `<!--[if mso]>…<![endif]-->`: markup only the Word engine reads. */
export interface MsoConditional {
  comment: HtmlComment;
  /** The markup inside the comment, as the Word engine would read it. */
  content: string;
}

/** `<!--[if !mso]><!-->…<!--<![endif]-->`: markup every client but the Word engine shows. */
export interface NotMsoRange {
  start: HtmlComment;
  end: HtmlComment;
}

/** A `<style>` rule the analysis skipped because its selector crosses a bound of limits.ts. */
export interface SkippedRule extends SelectorLimitCrossed {
  /** Position of the rule in the submitted markup (1-based; 0 when unknown). */
  line: number;
  column: number;
}

/**
 * One parse of an email, shared by every analysis, transform and report. Build it with
 * `parseEmail`; nothing in it is mutated afterwards.
 */
export interface ParsedEmail {
  /** The markup as submitted; every position refers to it. */
  source: string;
  /**
   * Template tags in front of the doctype or between head elements, which the parse read as blanks so that
   * they cannot push the head into the body (template-prologue.ts); in source order. The template report
   * reads them with the text.
   */
  prologueTemplateTags: readonly MaskedTemplateTag[];
  byteLength: number;
  document: HtmlDocument;
  /** Every element in document order (template contents included). */
  elements: readonly HtmlElement[];
  /**
   * For each element (same order as `elements`), the number of its parent element there; -1 when its
   * parent is not an element (the root, and the top of a template's content, whose parent is the
   * content fragment). Found by the same walk that numbers the elements.
   */
  elementParents: readonly number[];
  comments: readonly HtmlComment[];
  doctype: HtmlDocumentType | null;
  styleSheets: readonly EmailStyleSheet[];
  inlineStyles: ReadonlyMap<HtmlElement, InlineStyle>;
  msoConditionals: readonly MsoConditional[];
  notMsoRanges: readonly NotMsoRange[];
  /** VML shape names found inside conditional comments: `roundrect`, `rect`, `fill`, `image`, ... */
  vmlShapes: ReadonlySet<string>;
  cssRuleCount: number;
  /**
   * Rules whose selector crosses a selector bound (nesting depth, list size, length), in source order.
   * They are taken out of `styleSheets[].root` before anything reads the selectors; cssReport reports
   * them as `engine-limit` info findings.
   */
  skippedRules: readonly SkippedRule[];
  maxDepth: number;
  /** Shared selector-matching caches for this document. */
  matchContext: MatchContext;
  elementsById: ReadonlyMap<string, HtmlElement[]>;
  elementsByClass: ReadonlyMap<string, HtmlElement[]>;
  elementsByTag: ReadonlyMap<string, HtmlElement[]>;
}

const ELEMENT_NUMBER = Symbol('elementNumber');
type NumberedElement = HtmlElement & { [ELEMENT_NUMBER]?: number };

/**
 * The element's position in `ParsedEmail.elements` (document order), written once by the parse so that
 * per-element results can live in arrays without a Map from element to number. Undefined for an element
 * no parse numbered (one built by hand).
 */
export function elementNumber(element: HtmlElement): number | undefined {
  return (element as NumberedElement)[ELEMENT_NUMBER];
}

const MSO_CONDITIONAL = /^\[if\s+([^\]]*)\]>([\s\S]*)<!\[endif\]\s*$/i;
const NOT_MSO_START = /^\[if\s+!\s*mso[^\]]*\]><!\s*$/i;
const ENDIF = /^\s*<!\[endif\]\s*$/i;

/** Whether the Word engine evaluates a conditional-comment condition as true. */
export function wordEngineEvaluates(condition: string): boolean {
  const text = condition.toLowerCase();
  if (!text.includes('mso')) return false;
  if (/!\s*\(?\s*mso/.test(text) || /\bnot\s+mso/.test(text)) return false;
  return true;
}

function addTo(index: Map<string, HtmlElement[]>, key: string, element: HtmlElement): void {
  const list = index.get(key);
  if (list) list.push(element);
  else index.set(key, [element]);
}

function limitError(code: 'input_too_large' | 'nesting_too_deep' | 'too_many_css_rules', message: string, limit: number, actual: number): EngineLimitError {
  return new EngineLimitError(code, message, limit, actual);
}

/** Throws EngineLimitError when the markup is larger than the engine accepts. */
export function assertInputSize(html: string): number {
  // A UTF-16 length already over the limit cannot be fewer bytes: skip the count.
  if (html.length > ENGINE_LIMITS.maxInputBytes) {
    throw limitError(
      'input_too_large',
      `The markup is larger than ${ENGINE_LIMITS.maxInputBytes} bytes (500 KB).`,
      ENGINE_LIMITS.maxInputBytes,
      utf8Length(html),
    );
  }
  const bytes = utf8Length(html);
  if (bytes > ENGINE_LIMITS.maxInputBytes) {
    throw limitError(
      'input_too_large',
      `The markup is ${bytes} bytes; the limit is ${ENGINE_LIMITS.maxInputBytes} bytes (500 KB).`,
      ENGINE_LIMITS.maxInputBytes,
      bytes,
    );
  }
  return bytes;
}

/**
 * Parses an email once: parse5 (the WHATWG algorithm browsers use) with source positions (template tags
 * in front of the head blanked, see template-prologue.ts), every
 * `<style>` block and `style` attribute through postcss-safe-parser, conditional comments, and
 * id/class/tag indexes for selector matching. Throws EngineLimitError past the bounds of limits.ts.
 */
export function parseEmail(html: string): ParsedEmail {
  const byteLength = assertInputSize(html);
  const prologueTemplateTags = findPrologueTemplateTags(html);
  const document = parse(prologueTemplateTags.length > 0 ? blankTemplateTags(html, prologueTemplateTags) : html, { sourceCodeLocationInfo: true });

  const elements: HtmlElement[] = [];
  const elementParents: number[] = [];
  /** Per depth of the walk, the number children at the next depth have as their parent element. */
  const parentForDepth: number[] = [];
  const comments: HtmlComment[] = [];
  const styleSheets: EmailStyleSheet[] = [];
  const inlineStyles = new Map<HtmlElement, InlineStyle>();
  const msoConditionals: MsoConditional[] = [];
  const notMsoRanges: NotMsoRange[] = [];
  const vmlShapes = new Set<string>();
  const elementsById = new Map<string, HtmlElement[]>();
  const elementsByClass = new Map<string, HtmlElement[]>();
  const elementsByTag = new Map<string, HtmlElement[]>();
  const declarationCache = new Map<string, CssDeclaration[]>();
  let doctype: HtmlDocumentType | null = null;
  let cssRuleCount = 0;
  const skippedRules: SkippedRule[] = [];
  let maxDepth = 0;

  // Iterative walk: an email may nest deeper than the JS stack allows recursion.
  const stack: Array<{ node: HtmlNode; depth: number }> = [{ node: document, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: HtmlNode; depth: number };
    if (depth > maxDepth) {
      maxDepth = depth;
      if (depth > ENGINE_LIMITS.maxNestingDepth) {
        throw limitError('nesting_too_deep', `Elements nest more than ${ENGINE_LIMITS.maxNestingDepth} levels deep.`, ENGINE_LIMITS.maxNestingDepth, depth);
      }
    }
    if (isElement(node)) {
      // Every element gets the same property in the same order: one hidden class for all of them.
      (node as NumberedElement)[ELEMENT_NUMBER] = elements.length;
      // The walk is depth first: the last node met one level up is this one's parent.
      elementParents.push(depth > 0 ? parentForDepth[depth - 1] : -1);
      // A template's children (its content's) have the content fragment as their parent.
      parentForDepth[depth] = childrenOf(node) === node.childNodes ? elements.length : -1;
      elements.push(node);
      addTo(elementsByTag, node.tagName, node);
      indexAttributes(node, elementsById, elementsByClass, inlineStyles, declarationCache);
      if (node.tagName === 'style') cssRuleCount = readStyleElement(node, cssRuleCount, styleSheets, skippedRules);
    } else if (isComment(node)) {
      comments.push(node);
      classifyComment(node, msoConditionals, vmlShapes);
    } else if (node.nodeName === '#documentType') {
      doctype = node as HtmlDocumentType;
    } else {
      parentForDepth[depth] = -1;
    }
    if ('childNodes' in node) {
      const children = childrenOf(node as HtmlParentNode);
      for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], depth: depth + 1 });
      pairNotMsoRanges(children, notMsoRanges);
    }
  }

  return {
    source: html,
    prologueTemplateTags,
    byteLength,
    document,
    elements,
    elementParents,
    comments,
    doctype,
    styleSheets,
    inlineStyles,
    msoConditionals,
    notMsoRanges,
    vmlShapes,
    cssRuleCount,
    skippedRules,
    maxDepth,
    matchContext: new MatchContext(),
    elementsById,
    elementsByClass,
    elementsByTag,
  };
}

/**
 * Files an element under its id and class names, and parses its `style` attribute (once per distinct text:
 * equal attributes share their declarations).
 */
function indexAttributes(
  node: HtmlElement,
  elementsById: Map<string, HtmlElement[]>,
  elementsByClass: Map<string, HtmlElement[]>,
  inlineStyles: Map<HtmlElement, InlineStyle>,
  declarationCache: Map<string, CssDeclaration[]>,
): void {
  for (const attr of node.attrs) {
    if (attr.prefix) continue;
    if (attr.name === 'id' && attr.value) addTo(elementsById, attr.value, node);
    else if (attr.name === 'class') {
      for (const name of new Set(attr.value.split(/\s+/))) if (name) addTo(elementsByClass, name, node);
    } else if (attr.name === 'style') {
      let declarations = declarationCache.get(attr.value);
      if (!declarations) {
        assertCssDepth(attr.value);
        declarations = parseDeclarationList(attr.value);
        declarationCache.set(attr.value, declarations);
      }
      const location = node.sourceCodeLocation?.attrs?.style;
      inlineStyles.set(node, { value: attr.value, declarations, line: location?.startLine ?? 0, column: location?.startCol ?? 0 });
    }
  }
}

/**
 * Parses a `<style>` element's CSS into `styleSheets`, taking out (into `skippedRules`) the rules whose selector
 * crosses a selector bound. Returns the email's CSS rule count with this block's; throws past the rule limit.
 */
function readStyleElement(node: HtmlElement, cssRuleCount: number, styleSheets: EmailStyleSheet[], skippedRules: SkippedRule[]): number {
  const textNode = node.childNodes.find((c): c is HtmlText => c.nodeName === '#text');
  const text = node.childNodes.map((c) => (c.nodeName === '#text' ? (c as HtmlText).value : '')).join('');
  assertCssDepth(text);
  const root = parseStylesheet(text);
  const location = textNode?.sourceCodeLocation ?? node.sourceCodeLocation;
  const overLimit: Rule[] = [];
  root.walk((child) => {
    if (child.type === 'atrule') cssRuleCount++;
    else if (child.type === 'rule') {
      cssRuleCount++;
      // Checked in one linear pass before any selector is parsed, matched or scanned for features.
      const crossed = selectorLimitCrossed(child.selector);
      if (crossed) {
        overLimit.push(child);
        const [line, column] = cssNodePosition(location?.startLine ?? 0, location?.startCol ?? 0, child);
        skippedRules.push({ ...crossed, line, column });
      }
    }
  });
  if (cssRuleCount > ENGINE_LIMITS.maxCssRules) {
    throw limitError(
      'too_many_css_rules',
      `The email's <style> blocks hold more than ${ENGINE_LIMITS.maxCssRules} CSS rules.`,
      ENGINE_LIMITS.maxCssRules,
      cssRuleCount,
    );
  }
  for (const rule of overLimit) rule.remove();
  styleSheets.push({ element: node, text, root, line: location?.startLine ?? 0, column: location?.startCol ?? 0 });
  return cssRuleCount;
}

/** A CSS node's [line, column] in the submitted markup, from its position inside a `<style>` text starting at sheetLine:sheetColumn. */
export function cssNodePosition(sheetLine: number, sheetColumn: number, node: { source?: { start?: { line: number; column: number } } }): [number, number] {
  const start = node.source?.start;
  if (!start || sheetLine === 0) return [sheetLine, sheetColumn];
  return start.line === 1 ? [sheetLine, sheetColumn + start.column - 1] : [sheetLine + start.line - 1, start.column];
}

function assertCssDepth(css: string): void {
  if (!css.includes('{')) return;
  const depth = cssBraceDepth(css);
  if (depth > ENGINE_LIMITS.maxCssNestingDepth) {
    throw limitError('nesting_too_deep', `CSS blocks nest more than ${ENGINE_LIMITS.maxCssNestingDepth} levels deep.`, ENGINE_LIMITS.maxCssNestingDepth, depth);
  }
}

function classifyComment(comment: HtmlComment, msoConditionals: MsoConditional[], vmlShapes: Set<string>): void {
  const match = MSO_CONDITIONAL.exec(comment.data);
  if (!match || !wordEngineEvaluates(match[1])) return;
  msoConditionals.push({ comment, content: match[2] });
  for (const shape of match[2].matchAll(/<v:([a-z]+)/gi)) vmlShapes.add(shape[1].toLowerCase());
}

function pairNotMsoRanges(children: readonly HtmlNode[], ranges: NotMsoRange[]): void {
  let open: HtmlComment | undefined;
  for (const child of children) {
    if (!isComment(child)) continue;
    if (NOT_MSO_START.test(child.data)) open = child;
    else if (open && ENDIF.test(child.data)) {
      ranges.push({ start: open, end: child });
      open = undefined;
    }
  }
}

/** The first element with this tag name, in document order. */
export function firstElement(parsed: ParsedEmail, tag: string): HtmlElement | undefined {
  return parsed.elementsByTag.get(tag)?.[0];
}
