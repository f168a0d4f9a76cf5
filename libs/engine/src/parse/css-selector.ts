import { ENGINE_LIMITS } from '../limits';
import { HtmlElement, childrenOf, getAttribute, isElement, parentElement } from './dom';

/**
 * A small CSS selector engine over parse5 elements: enough for the selectors emails use, fast
 * (right-to-left matching, candidates from id/class/tag indexes) and honest about its limits:
 * a selector it cannot evaluate statically (`:hover`, `::before`, unknown pseudo-classes) is
 * reported as not matchable, which is also what an inliner must keep in `<style>`.
 */
export type Combinator = ' ' | '>' | '+' | '~';

interface AttributeTest {
  name: string;
  operator?: '=' | '~=' | '|=' | '^=' | '$=' | '*=';
  value?: string;
  caseInsensitive: boolean;
}

interface StructuralPseudo {
  name: string;
  a?: number;
  b?: number;
  not?: ParsedSelector[];
}

export interface Compound {
  tag?: string;
  universal: boolean;
  ids: string[];
  classes: string[];
  attributes: AttributeTest[];
  pseudos: StructuralPseudo[];
}

export interface ParsedSelector {
  text: string;
  compounds: Compound[];
  /** combinators[i] joins compounds[i] and compounds[i + 1]. */
  combinators: Combinator[];
  specificity: [number, number, number];
  /** False when it needs state or pseudo-elements a static document does not have. */
  matchable: boolean;
  /** Pseudo-classes (`:hover`) and pseudo-elements (`::before`, or `:before`) as written, lower-cased. */
  pseudoClasses: string[];
  pseudoElements: string[];
  usesClass: boolean;
  usesId: boolean;
  usesType: boolean;
  usesUniversal: boolean;
  usesAttribute: boolean;
  /** A compound made of several simple selectors (`p.intro`, `.a.b`). */
  usesChaining: boolean;
}

const STRUCTURAL = new Set([
  'first-child',
  'last-child',
  'only-child',
  'nth-child',
  'nth-last-child',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'nth-of-type',
  'nth-last-of-type',
  'root',
  'empty',
  'not',
]);
const LEGACY_PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-letter', 'first-line']);
const MAX_COMPOUNDS = 32;

/** Splits a selector list on top-level commas. */
export function splitSelectorList(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((part) => part.length > 0);
}

/** The selector bound of limits.ts a rule's selector text crosses: its label, value and the text's figure. */
export interface SelectorLimitCrossed {
  limit: 'selector nesting depth' | 'selector list size' | 'selector length';
  value: number;
  actual: number;
}

/**
 * Checks a rule's selector text against the selector bounds of limits.ts in one linear pass (no
 * parsing, no recursion), before anything parses it. Reports the first bound crossed, in the order
 * nesting depth, list size, length; undefined when the text is within all three.
 */
export function selectorLimitCrossed(text: string): SelectorLimitCrossed | undefined {
  let depth = 0;
  let maxDepth = 0;
  let listSize = 1;
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 92 /* \ */) i++;
    else if (quote) {
      if (ch === quote) quote = 0;
    } else if (ch === 34 || ch === 39) quote = ch;
    else if (ch === 40 /* ( */ || ch === 91 /* [ */) {
      depth++;
      if (depth > maxDepth) maxDepth = depth;
    } else if (ch === 41 /* ) */ || ch === 93 /* ] */) depth = Math.max(0, depth - 1);
    else if (ch === 44 /* , */ && depth === 0) listSize++;
  }
  if (maxDepth > ENGINE_LIMITS.maxSelectorNestingDepth)
    return { limit: 'selector nesting depth', value: ENGINE_LIMITS.maxSelectorNestingDepth, actual: maxDepth };
  if (listSize > ENGINE_LIMITS.maxSelectorListSize) return { limit: 'selector list size', value: ENGINE_LIMITS.maxSelectorListSize, actual: listSize };
  if (text.length > ENGINE_LIMITS.maxSelectorLength) return { limit: 'selector length', value: ENGINE_LIMITS.maxSelectorLength, actual: text.length };
  return undefined;
}

const IDENT_CHAR = /[-\w\u00a0-\uffff]/;
/** A CSS hex escape after its backslash, read in place (sticky): no copy of the rest of the text per escape. */
const HEX_ESCAPE = /[0-9a-fA-F]{1,6}\s?/y;

class SelectorReader {
  pos = 0;
  constructor(readonly text: string) {}
  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }
  done(): boolean {
    return this.pos >= this.text.length;
  }
  ident(): string {
    let out = '';
    while (!this.done()) {
      const ch = this.peek();
      if (ch === '\\') {
        HEX_ESCAPE.lastIndex = this.pos + 1;
        const hex = HEX_ESCAPE.exec(this.text);
        if (hex) {
          out += String.fromCodePoint(parseInt(hex[0].trim(), 16) || 0xfffd);
          this.pos += 1 + hex[0].length;
        } else {
          out += this.peek(1);
          this.pos += 2;
        }
      } else if (IDENT_CHAR.test(ch)) {
        out += ch;
        this.pos++;
      } else break;
    }
    return out;
  }
  until(close: string): string {
    let depth = 0;
    let quote = '';
    const start = this.pos;
    while (!this.done()) {
      const ch = this.peek();
      if (ch === '\\') this.pos++;
      else if (quote) {
        if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '(' || ch === '[') depth++;
      else if (ch === close && depth === 0) break;
      else if (ch === ')' || ch === ']') depth--;
      this.pos++;
    }
    const inner = this.text.slice(start, this.pos);
    this.pos++; // the closing character
    return inner;
  }
  skipSpace(): boolean {
    const start = this.pos;
    while (!this.done() && /\s/.test(this.peek())) this.pos++;
    return this.pos > start;
  }
}

function parseNth(argument: string): { a: number; b: number } | undefined {
  const text = argument.replace(/\s+/g, '').toLowerCase();
  if (text === 'odd') return { a: 2, b: 1 };
  if (text === 'even') return { a: 2, b: 0 };
  const match = /^([+-]?\d*)n([+-]\d+)?$/.exec(text);
  if (match) {
    const a = match[1] === '' || match[1] === '+' ? 1 : match[1] === '-' ? -1 : parseInt(match[1], 10);
    return { a, b: match[2] ? parseInt(match[2], 10) : 0 };
  }
  if (/^[+-]?\d+$/.test(text)) return { a: 0, b: parseInt(text, 10) };
  return undefined;
}

function emptyCompound(): Compound {
  return { universal: false, ids: [], classes: [], attributes: [], pseudos: [] };
}

/**
 * Parses one complex selector. `:not(…)` arguments are parsed recursively, at most
 * `ENGINE_LIMITS.maxSelectorNestingDepth` levels deep: a deeper argument is not parsed and makes the
 * selector unmatchable (the email's rules never get here: parseEmail skips a rule over the selector
 * bounds). Each level scans its argument once, so the work is at most depth × length.
 */
export function parseSelector(text: string): ParsedSelector {
  return parseSelectorAt(text, 0);
}

function parseSelectorAt(text: string, depth: number): ParsedSelector {
  const selector: ParsedSelector = {
    text,
    compounds: [],
    combinators: [],
    specificity: [0, 0, 0],
    matchable: true,
    pseudoClasses: [],
    pseudoElements: [],
    usesClass: false,
    usesId: false,
    usesType: false,
    usesUniversal: false,
    usesAttribute: false,
    usesChaining: false,
  };
  const reader = new SelectorReader(text.trim());
  let compound = emptyCompound();
  /** Simple selectors in `compound` so far. */
  let simpleCount = 0;
  while (!reader.done()) {
    const ch = reader.peek();
    if (/\s/.test(ch) || ch === '>' || ch === '+' || ch === '~') {
      const combinator = readCombinator(reader);
      if (reader.done()) break;
      if (simpleCount === 0) {
        selector.matchable = false; // a leading or doubled combinator (nesting syntax, `> a`)
        continue;
      }
      finishCompound(selector, compound, simpleCount);
      compound = emptyCompound();
      simpleCount = 0;
      selector.combinators.push(combinator);
    } else simpleCount += readSimpleSelector(reader, ch, selector, compound, depth);
  }
  if (simpleCount > 0) finishCompound(selector, compound, simpleCount);
  if (selector.compounds.length === 0 || selector.compounds.length > MAX_COMPOUNDS) selector.matchable = false;
  return selector;
}

/** Reads the white space and combinator between two compounds (white space alone is the descendant combinator). */
function readCombinator(reader: SelectorReader): Combinator {
  reader.skipSpace();
  let combinator: Combinator = ' ';
  const next = reader.peek();
  if (next === '>' || next === '+' || next === '~') {
    combinator = next;
    reader.pos++;
    reader.skipSpace();
  }
  return combinator;
}

function finishCompound(selector: ParsedSelector, compound: Compound, simpleCount: number): void {
  if (simpleCount > 1) selector.usesChaining = true;
  selector.compounds.push(compound);
}

/**
 * Reads the simple selector starting at `ch` into the compound (and what it tells into the selector). Returns
 * how many simple selectors that was: 0 for what is none (a stray character, an empty name).
 */
function readSimpleSelector(reader: SelectorReader, ch: string, selector: ParsedSelector, compound: Compound, depth: number): number {
  if (ch === '*') {
    reader.pos++;
    compound.universal = true;
    selector.usesUniversal = true;
  } else if (ch === '#') {
    reader.pos++;
    compound.ids.push(reader.ident());
    selector.usesId = true;
    selector.specificity[0]++;
  } else if (ch === '.') {
    reader.pos++;
    compound.classes.push(reader.ident());
    selector.usesClass = true;
    selector.specificity[1]++;
  } else if (ch === '[') {
    readAttributeTest(reader, selector, compound);
  } else if (ch === ':') {
    readPseudo(reader, selector, compound, depth);
  } else if (IDENT_CHAR.test(ch) || ch === '\\') {
    const name = reader.ident();
    if (!name) {
      reader.pos++;
      selector.matchable = false;
      return 0;
    }
    compound.tag = name.toLowerCase();
    selector.usesType = true;
    selector.specificity[2]++;
  } else {
    // `&` (nesting), `|` (namespaces) and stray characters: understood by no email inliner.
    reader.pos++;
    selector.matchable = false;
    return 0;
  }
  return 1;
}

/** `[name]`, `[name op value]`, `[name op value i]`; anything else makes the selector unmatchable. */
function readAttributeTest(reader: SelectorReader, selector: ParsedSelector, compound: Compound): void {
  reader.pos++;
  const inner = reader.until(']');
  const match = /^\s*([^\s~|^$*=]+)\s*(?:([~|^$*]?=)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s]+)\s*([iIsS])?)?\s*$/.exec(inner);
  if (match) {
    const raw = match[3];
    const value = raw && (raw.startsWith('"') || raw.startsWith("'")) ? raw.slice(1, -1) : raw;
    compound.attributes.push({
      name: match[1].toLowerCase(),
      operator: match[2] as AttributeTest['operator'],
      value,
      caseInsensitive: match[4]?.toLowerCase() === 'i',
    });
  } else selector.matchable = false;
  selector.usesAttribute = true;
  selector.specificity[1]++;
}

/** A pseudo-element or pseudo-class; only the structural pseudo-classes leave the selector matchable. */
function readPseudo(reader: SelectorReader, selector: ParsedSelector, compound: Compound, depth: number): void {
  const isElementSyntax = reader.peek(1) === ':';
  reader.pos += isElementSyntax ? 2 : 1;
  const name = reader.ident().toLowerCase();
  let argument: string | undefined;
  if (reader.peek() === '(') {
    reader.pos++;
    argument = reader.until(')');
  }
  if (isElementSyntax || LEGACY_PSEUDO_ELEMENTS.has(name)) {
    selector.pseudoElements.push(`${isElementSyntax ? '::' : ':'}${name}`);
    selector.specificity[2]++;
    selector.matchable = false;
    return;
  }
  selector.pseudoClasses.push(`:${name}`);
  if (!STRUCTURAL.has(name)) {
    selector.specificity[1]++;
    selector.matchable = false;
    return;
  }
  if (name === 'not') {
    readNot(argument, selector, compound, depth);
    return;
  }
  selector.specificity[1]++;
  if (name.startsWith('nth-')) {
    const nth = parseNth(argument ?? '');
    if (!nth) selector.matchable = false;
    compound.pseudos.push({ name, ...nth });
  } else compound.pseudos.push({ name });
}

/** `:not(…)`: its argument parsed one level deeper; it adds the specificity of its most specific selector. */
function readNot(argument: string | undefined, selector: ParsedSelector, compound: Compound, depth: number): void {
  if (depth >= ENGINE_LIMITS.maxSelectorNestingDepth) {
    selector.specificity[1]++;
    selector.matchable = false;
    return;
  }
  const inner = splitSelectorList(argument ?? '').map((part) => parseSelectorAt(part, depth + 1));
  for (const part of inner) {
    part.pseudoClasses.forEach((p) => selector.pseudoClasses.push(p));
    if (!part.matchable || part.compounds.length !== 1) selector.matchable = false;
  }
  const max = inner.reduce<[number, number, number]>((best, p) => (compareSpecificity(p.specificity, best) > 0 ? p.specificity : best), [0, 0, 0]);
  selector.specificity = [selector.specificity[0] + max[0], selector.specificity[1] + max[1], selector.specificity[2] + max[2]];
  compound.pseudos.push({ name: 'not', not: inner });
}

export function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Where an element stands among its parent's element children, and among those of its tag. */
interface SiblingPosition {
  siblings: HtmlElement[];
  index: number;
  /** Filled on the first `*-of-type` question about this parent. */
  typeIndex: number;
  typeCount: number;
}

/** Per-document caches the matcher needs (class sets, element siblings and positions, partial matches). */
export class MatchContext {
  private readonly classCache = new WeakMap<HtmlElement, Set<string>>();
  private readonly siblingCache = new WeakMap<object, HtmlElement[]>();
  private readonly positionCache = new WeakMap<HtmlElement, SiblingPosition>();
  private readonly typedParents = new WeakSet<HtmlElement[]>();
  private readonly partialTables = new WeakMap<ParsedSelector, Array<Map<HtmlElement, boolean>>>();

  /**
   * Attribute values as the matcher sees them. A variant of the document can add attributes the
   * source does not have (Outlook.com's data-ogsc/data-ogsb in dark mode) by overriding this.
   */
  attribute(element: HtmlElement, name: string): string | undefined {
    return getAttribute(element, name);
  }

  classesOf(element: HtmlElement): Set<string> {
    let classes = this.classCache.get(element);
    if (!classes) {
      classes = new Set((getAttribute(element, 'class') ?? '').split(/\s+/).filter(Boolean));
      this.classCache.set(element, classes);
    }
    return classes;
  }

  siblingsOf(element: HtmlElement): HtmlElement[] {
    const parent = element.parentNode;
    if (!parent) return [element];
    let siblings = this.siblingCache.get(parent);
    if (!siblings) {
      siblings = childrenOf(parent).filter(isElement);
      this.siblingCache.set(parent, siblings);
    }
    return siblings;
  }

  /**
   * The element's position among its siblings, recorded for all of them at once (structural
   * pseudo-classes and sibling combinators ask once per element: an `indexOf` each would be quadratic).
   */
  positionOf(element: HtmlElement): SiblingPosition {
    let position = this.positionCache.get(element);
    if (!position) {
      const siblings = this.siblingsOf(element);
      siblings.forEach((sibling, index) => this.positionCache.set(sibling, { siblings, index, typeIndex: -1, typeCount: 0 }));
      position = this.positionCache.get(element) ?? { siblings: [element], index: 0, typeIndex: 0, typeCount: 1 };
    }
    return position;
  }

  /** The same, with the position among the siblings of the element's tag filled in. */
  typedPositionOf(element: HtmlElement): SiblingPosition {
    const position = this.positionOf(element);
    if (position.typeIndex < 0 && !this.typedParents.has(position.siblings)) {
      this.typedParents.add(position.siblings);
      const counts = new Map<string, number>();
      for (const sibling of position.siblings) {
        const own = this.positionCache.get(sibling) as SiblingPosition;
        own.typeIndex = counts.get(sibling.tagName) ?? 0;
        counts.set(sibling.tagName, own.typeIndex + 1);
      }
      for (const sibling of position.siblings) (this.positionCache.get(sibling) as SiblingPosition).typeCount = counts.get(sibling.tagName) ?? 0;
    }
    return position;
  }

  /**
   * For `selector`'s compounds up to `index`: whether the element, or an element further along the
   * chain the next combinator walks (ancestors for ` `, earlier siblings for `~`), matches them.
   * Each element's answer is computed once per selector, which keeps matching linear in the document.
   */
  partialMatches(selector: ParsedSelector, index: number): Map<HtmlElement, boolean> {
    let tables = this.partialTables.get(selector);
    if (!tables) {
      tables = [];
      this.partialTables.set(selector, tables);
    }
    let table = tables[index];
    if (!table) {
      table = new Map();
      tables[index] = table;
    }
    return table;
  }
}

function matchesAttribute(element: HtmlElement, test: AttributeTest, context: MatchContext): boolean {
  const actual = context.attribute(element, test.name);
  if (actual === undefined) return false;
  if (!test.operator || test.value === undefined) return true;
  const value = test.caseInsensitive ? actual.toLowerCase() : actual;
  const expected = test.caseInsensitive ? test.value.toLowerCase() : test.value;
  switch (test.operator) {
    case '=':
      return value === expected;
    case '~=':
      return value.split(/\s+/).includes(expected);
    case '|=':
      return value === expected || value.startsWith(`${expected}-`);
    case '^=':
      return expected !== '' && value.startsWith(expected);
    case '$=':
      return expected !== '' && value.endsWith(expected);
    case '*=':
      return expected !== '' && value.includes(expected);
  }
}

function nthMatches(a: number, b: number, position: number): boolean {
  if (a === 0) return position === b;
  const n = (position - b) / a;
  return Number.isInteger(n) && n >= 0;
}

function matchesPseudo(element: HtmlElement, pseudo: StructuralPseudo, context: MatchContext): boolean {
  if (pseudo.name === 'not') return !(pseudo.not ?? []).some((inner) => matchesCompound(element, inner.compounds[0], context));
  if (pseudo.name === 'root') return element.parentNode?.nodeName === '#document';
  if (pseudo.name === 'empty') return element.childNodes.every((c) => c.nodeName === '#comment');
  const ofType = pseudo.name.endsWith('of-type');
  const position = ofType ? context.typedPositionOf(element) : context.positionOf(element);
  const index = ofType ? position.typeIndex : position.index;
  const count = ofType ? position.typeCount : position.siblings.length;
  switch (pseudo.name) {
    case 'first-child':
    case 'first-of-type':
      return index === 0;
    case 'last-child':
    case 'last-of-type':
      return index === count - 1;
    case 'only-child':
    case 'only-of-type':
      return count === 1;
    case 'nth-child':
    case 'nth-of-type':
      return nthMatches(pseudo.a ?? 0, pseudo.b ?? 0, index + 1);
    case 'nth-last-child':
    case 'nth-last-of-type':
      return nthMatches(pseudo.a ?? 0, pseudo.b ?? 0, count - index);
    default:
      return false;
  }
}

function matchesCompound(element: HtmlElement, compound: Compound | undefined, context: MatchContext): boolean {
  if (!compound) return false;
  if (compound.tag && compound.tag !== element.tagName) return false;
  if (compound.ids.length > 0) {
    const id = getAttribute(element, 'id');
    if (compound.ids.some((expected) => expected !== id)) return false;
  }
  if (compound.classes.length > 0) {
    const classes = context.classesOf(element);
    if (compound.classes.some((c) => !classes.has(c))) return false;
  }
  for (const attribute of compound.attributes) if (!matchesAttribute(element, attribute, context)) return false;
  for (const pseudo of compound.pseudos) if (!matchesPseudo(element, pseudo, context)) return false;
  return true;
}

function previousSibling(element: HtmlElement, context: MatchContext): HtmlElement | null {
  const position = context.positionOf(element);
  return position.index > 0 ? position.siblings[position.index - 1] : null;
}

/**
 * Right to left: the compound at `index` against the element, then the compounds before it against
 * the element the combinator leads to. Recursion is at most one level per compound (≤ 32).
 */
function matchesFrom(selector: ParsedSelector, index: number, element: HtmlElement, context: MatchContext): boolean {
  if (!matchesCompound(element, selector.compounds[index], context)) return false;
  if (index === 0) return true;
  const combinator = selector.combinators[index - 1];
  if (combinator === '>') {
    const parent = parentElement(element);
    return parent !== null && matchesFrom(selector, index - 1, parent, context);
  }
  if (combinator === '+') {
    const previous = previousSibling(element, context);
    return previous !== null && matchesFrom(selector, index - 1, previous, context);
  }
  const step = combinator === ' ' ? parentElement : (from: HtmlElement): HtmlElement | null => previousSibling(from, context);
  return someAlongChain(selector, index - 1, step(element), step, context);
}

/**
 * Whether `start` or an element after it on the chain `step` walks matches the compounds up to
 * `index`. Answers are memoized per element (MatchContext.partialMatches), so a later question about
 * the same chain stops where an earlier one left a known answer: without it a failing descendant
 * selector backtracks exponentially and a `~` combinator rescans every earlier sibling per candidate.
 */
function someAlongChain(
  selector: ParsedSelector,
  index: number,
  start: HtmlElement | null,
  step: (element: HtmlElement) => HtmlElement | null,
  context: MatchContext,
): boolean {
  const known = context.partialMatches(selector, index);
  const visited: HtmlElement[] = [];
  let answer = false;
  for (let element = start; element; element = step(element)) {
    const cached = known.get(element);
    if (cached !== undefined) {
      answer = cached;
      break;
    }
    visited.push(element);
    if (matchesFrom(selector, index, element, context)) {
      answer = true;
      break;
    }
  }
  for (const element of visited) known.set(element, answer);
  return answer;
}

/** Whether a matchable selector applies to an element. */
export function matchesSelector(element: HtmlElement, selector: ParsedSelector, context: MatchContext): boolean {
  return selector.matchable && matchesFrom(selector, selector.compounds.length - 1, element, context);
}
