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

const STRUCTURAL = new Set(['first-child', 'last-child', 'only-child', 'nth-child', 'nth-last-child', 'first-of-type', 'last-of-type', 'only-of-type', 'nth-of-type', 'nth-last-of-type', 'root', 'empty', 'not']);
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

const IDENT_CHAR = /[-\w\u00a0-\uffff]/;

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
        const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(this.text.slice(this.pos + 1));
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

export function parseSelector(text: string): ParsedSelector {
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
  let simpleCount = 0;
  const finishCompound = (): void => {
    if (simpleCount > 1) selector.usesChaining = true;
    selector.compounds.push(compound);
    compound = emptyCompound();
    simpleCount = 0;
  };
  while (!reader.done()) {
    const ch = reader.peek();
    if (/\s/.test(ch) || ch === '>' || ch === '+' || ch === '~') {
      reader.skipSpace();
      let combinator: Combinator = ' ';
      const next = reader.peek();
      if (next === '>' || next === '+' || next === '~') {
        combinator = next;
        reader.pos++;
        reader.skipSpace();
      }
      if (reader.done()) break;
      if (simpleCount === 0) {
        selector.matchable = false; // a leading or doubled combinator (nesting syntax, `> a`)
        continue;
      }
      finishCompound();
      selector.combinators.push(combinator);
    } else if (ch === '*') {
      reader.pos++;
      compound.universal = true;
      selector.usesUniversal = true;
      simpleCount++;
    } else if (ch === '#') {
      reader.pos++;
      compound.ids.push(reader.ident());
      selector.usesId = true;
      selector.specificity[0]++;
      simpleCount++;
    } else if (ch === '.') {
      reader.pos++;
      compound.classes.push(reader.ident());
      selector.usesClass = true;
      selector.specificity[1]++;
      simpleCount++;
    } else if (ch === '[') {
      reader.pos++;
      const inner = reader.until(']');
      const match = /^\s*([^\s~|^$*=]+)\s*(?:([~|^$*]?=)\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s]+)\s*([iIsS])?)?\s*$/.exec(inner);
      if (match) {
        const raw = match[3];
        const value = raw && (raw.startsWith('"') || raw.startsWith("'")) ? raw.slice(1, -1) : raw;
        compound.attributes.push({ name: match[1].toLowerCase(), operator: match[2] as AttributeTest['operator'], value, caseInsensitive: match[4]?.toLowerCase() === 'i' });
      } else selector.matchable = false;
      selector.usesAttribute = true;
      selector.specificity[1]++;
      simpleCount++;
    } else if (ch === ':') {
      const isElementSyntax = reader.peek(1) === ':';
      reader.pos += isElementSyntax ? 2 : 1;
      const name = reader.ident().toLowerCase();
      let argument: string | undefined;
      if (reader.peek() === '(') {
        reader.pos++;
        argument = reader.until(')');
      }
      simpleCount++;
      if (isElementSyntax || LEGACY_PSEUDO_ELEMENTS.has(name)) {
        selector.pseudoElements.push(`${isElementSyntax ? '::' : ':'}${name}`);
        selector.specificity[2]++;
        selector.matchable = false;
        continue;
      }
      selector.pseudoClasses.push(`:${name}`);
      if (!STRUCTURAL.has(name)) {
        selector.specificity[1]++;
        selector.matchable = false;
        continue;
      }
      if (name === 'not') {
        const inner = splitSelectorList(argument ?? '').map(parseSelector);
        for (const part of inner) {
          part.pseudoClasses.forEach((p) => selector.pseudoClasses.push(p));
          if (!part.matchable || part.compounds.length !== 1) selector.matchable = false;
        }
        const max = inner.reduce<[number, number, number]>((best, p) => (compareSpecificity(p.specificity, best) > 0 ? p.specificity : best), [0, 0, 0]);
        selector.specificity = [selector.specificity[0] + max[0], selector.specificity[1] + max[1], selector.specificity[2] + max[2]];
        compound.pseudos.push({ name, not: inner });
        continue;
      }
      selector.specificity[1]++;
      if (name.startsWith('nth-')) {
        const nth = parseNth(argument ?? '');
        if (!nth) selector.matchable = false;
        compound.pseudos.push({ name, ...nth });
      } else compound.pseudos.push({ name });
    } else if (IDENT_CHAR.test(ch) || ch === '\\') {
      const name = reader.ident();
      if (!name) {
        reader.pos++;
        selector.matchable = false;
        continue;
      }
      compound.tag = name.toLowerCase();
      selector.usesType = true;
      selector.specificity[2]++;
      simpleCount++;
    } else {
      // `&` (nesting), `|` (namespaces) and stray characters: understood by no email inliner.
      reader.pos++;
      selector.matchable = false;
    }
  }
  if (simpleCount > 0) finishCompound();
  if (selector.compounds.length === 0 || selector.compounds.length > MAX_COMPOUNDS) selector.matchable = false;
  return selector;
}

export function compareSpecificity(a: readonly number[], b: readonly number[]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Per-document caches the matcher needs (class sets, element siblings). */
export class MatchContext {
  private readonly classCache = new WeakMap<HtmlElement, Set<string>>();
  private readonly siblingCache = new WeakMap<object, HtmlElement[]>();

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
  const siblings = context.siblingsOf(element);
  const ofType = pseudo.name.endsWith('of-type') ? siblings.filter((s) => s.tagName === element.tagName) : siblings;
  const index = ofType.indexOf(element);
  switch (pseudo.name) {
    case 'first-child':
    case 'first-of-type':
      return index === 0;
    case 'last-child':
    case 'last-of-type':
      return index === ofType.length - 1;
    case 'only-child':
    case 'only-of-type':
      return ofType.length === 1;
    case 'nth-child':
    case 'nth-of-type':
      return nthMatches(pseudo.a ?? 0, pseudo.b ?? 0, index + 1);
    case 'nth-last-child':
    case 'nth-last-of-type':
      return nthMatches(pseudo.a ?? 0, pseudo.b ?? 0, ofType.length - index);
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

function matchesFrom(selector: ParsedSelector, index: number, element: HtmlElement, context: MatchContext): boolean {
  if (!matchesCompound(element, selector.compounds[index], context)) return false;
  if (index === 0) return true;
  const combinator = selector.combinators[index - 1];
  if (combinator === '>') {
    const parent = parentElement(element);
    return parent !== null && matchesFrom(selector, index - 1, parent, context);
  }
  if (combinator === ' ') {
    for (let ancestor = parentElement(element); ancestor; ancestor = parentElement(ancestor)) {
      if (matchesFrom(selector, index - 1, ancestor, context)) return true;
    }
    return false;
  }
  const siblings = context.siblingsOf(element);
  const position = siblings.indexOf(element);
  if (combinator === '+') return position > 0 && matchesFrom(selector, index - 1, siblings[position - 1], context);
  for (let i = position - 1; i >= 0; i--) if (matchesFrom(selector, index - 1, siblings[i], context)) return true;
  return false;
}

/** Whether a matchable selector applies to an element. */
export function matchesSelector(element: HtmlElement, selector: ParsedSelector, context: MatchContext): boolean {
  return selector.matchable && matchesFrom(selector, selector.compounds.length - 1, element, context);
}
