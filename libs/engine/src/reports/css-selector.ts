/**
 * A small CSS selector engine for the subset that decides static colours and visibility in email:
 * type, universal, #id, .class, attribute selectors, :root/:first-child/:last-child, and the descendant
 * and child combinators. Anything else (:hover, ::before, +, ~, :not()) never matches, because it does
 * not describe the email as it first renders. Parsing is a single linear scan.
 */
import type { EmailElement } from './parsed-email';
import { classList } from './parsed-email';

interface AttributeTest {
  name: string;
  operator: '' | '=' | '~=' | '^=' | '$=' | '*=' | '|=';
  value: string;
}

interface Compound {
  tag: string | null;
  id: string | null;
  classes: string[];
  attributes: AttributeTest[];
  pseudo: ('root' | 'first-child' | 'last-child')[];
}

export interface CompiledSelector {
  /** Right-most compound first; combinators[i] links compounds[i] to compounds[i + 1]. */
  compounds: Compound[];
  combinators: (' ' | '>')[];
  /** ids·1e6 + classes·1e3 + types, enough for any real selector. */
  specificity: number;
  /** Bucket key of the right-most compound, like browsers use to skip rules quickly. */
  key: string;
}

const MAX_SELECTOR_LENGTH = 2000;

function isNameChar(char: string): boolean {
  const code = char.charCodeAt(0);
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    char === '-' || char === '_' || code > 127
  );
}

/** Splits a selector list on top-level commas. */
export function splitSelectorList(selectorText: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < selectorText.length; i++) {
    const char = selectorText[i];
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '\\') i++;
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      parts.push(selectorText.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(selectorText.slice(start).trim());
  return parts.filter((part) => part.length > 0);
}

/** Compiles one complex selector; null when it uses anything outside the supported subset. */
export function compileSelector(selector: string): CompiledSelector | null {
  if (selector.length === 0 || selector.length > MAX_SELECTOR_LENGTH) return null;
  const compoundsLeftToRight: Compound[] = [];
  const combinatorsLeftToRight: (' ' | '>')[] = [];
  let current: Compound | null = null;
  let pendingCombinator: ' ' | '>' | null = null;
  let i = 0;

  const readName = (): string => {
    let name = '';
    while (i < selector.length) {
      const char = selector[i];
      if (char === '\\' && i + 1 < selector.length) {
        name += selector[i + 1];
        i += 2;
      } else if (isNameChar(char)) {
        name += char;
        i++;
      } else break;
    }
    return name;
  };
  const startCompound = (): Compound => {
    if (current) return current;
    current = { tag: null, id: null, classes: [], attributes: [], pseudo: [] };
    if (compoundsLeftToRight.length > 0) combinatorsLeftToRight.push(pendingCombinator ?? ' ');
    pendingCombinator = null;
    compoundsLeftToRight.push(current);
    return current;
  };

  while (i < selector.length) {
    const char = selector[i];
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f') {
      if (current) pendingCombinator = pendingCombinator ?? ' ';
      current = null;
      i++;
    } else if (char === '>') {
      if (compoundsLeftToRight.length === 0) return null;
      pendingCombinator = '>';
      current = null;
      i++;
    } else if (char === '+' || char === '~' || char === '|') {
      return null;
    } else if (char === '*') {
      startCompound();
      i++;
    } else if (char === '#') {
      i++;
      const name = readName();
      if (!name) return null;
      startCompound().id = name;
    } else if (char === '.') {
      i++;
      const name = readName();
      if (!name) return null;
      startCompound().classes.push(name);
    } else if (char === '[') {
      const close = selector.indexOf(']', i);
      if (close === -1) return null;
      const test = parseAttributeTest(selector.slice(i + 1, close));
      if (!test) return null;
      startCompound().attributes.push(test);
      i = close + 1;
    } else if (char === ':') {
      i++;
      if (selector[i] === ':') return null;
      const name = readName().toLowerCase();
      if (name === 'root' || name === 'first-child' || name === 'last-child') startCompound().pseudo.push(name);
      else return null;
      if (selector[i] === '(') return null;
    } else if (isNameChar(char) || char === '\\') {
      const name = readName();
      if (!name) return null;
      const compound = startCompound();
      if (compound.tag !== null) return null;
      compound.tag = name.toLowerCase();
    } else {
      return null;
    }
  }
  if (compoundsLeftToRight.length === 0 || pendingCombinator === '>') return null;

  let ids = 0;
  let classes = 0;
  let types = 0;
  for (const compound of compoundsLeftToRight) {
    if (compound.id) ids++;
    classes += compound.classes.length + compound.attributes.length + compound.pseudo.length;
    if (compound.tag) types++;
  }
  const rightMost = compoundsLeftToRight[compoundsLeftToRight.length - 1];
  const key = rightMost.id ? `#${rightMost.id}` : rightMost.classes.length > 0 ? `.${rightMost.classes[0]}` : rightMost.tag ?? '*';
  return {
    compounds: compoundsLeftToRight.reverse(),
    combinators: combinatorsLeftToRight.reverse(),
    specificity: ids * 1_000_000 + classes * 1_000 + types,
    key,
  };
}

function parseAttributeTest(body: string): AttributeTest | null {
  let nameEnd = 0;
  while (nameEnd < body.length && (isNameChar(body[nameEnd]) || body[nameEnd] === ':')) nameEnd++;
  const name = body.slice(0, nameEnd).trim().toLowerCase();
  if (!name) return null;
  const rest = body.slice(nameEnd).trim();
  if (rest.length === 0) return { name, operator: '', value: '' };
  const operators = ['~=', '^=', '$=', '*=', '|=', '='] as const;
  const operator = operators.find((candidate) => rest.startsWith(candidate));
  if (!operator) return null;
  let value = rest.slice(operator.length).trim();
  // A trailing " i" / " s" flag: keep the value, ignore the flag.
  if (/\s[is]$/i.test(value)) value = value.slice(0, -2).trim();
  if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
    value = value.slice(1, -1);
  }
  return { name, operator, value };
}

function elementSiblings(element: EmailElement): EmailElement[] {
  const parent = element.parent;
  if (!parent) return [element];
  return parent.children.filter((child): child is EmailElement => child.kind === 'element');
}

function matchesCompound(element: EmailElement, compound: Compound): boolean {
  if (compound.tag && compound.tag !== element.tag) return false;
  if (compound.id && element.attrs.get('id') !== compound.id) return false;
  if (compound.classes.length > 0) {
    const classes = classList(element);
    for (const name of compound.classes) if (!classes.includes(name)) return false;
  }
  for (const test of compound.attributes) {
    const value = element.attrs.get(test.name);
    if (value === undefined) return false;
    switch (test.operator) {
      case '':
        break;
      case '=':
        if (value !== test.value) return false;
        break;
      case '~=':
        if (!value.split(/\s+/).includes(test.value)) return false;
        break;
      case '^=':
        if (!test.value || !value.startsWith(test.value)) return false;
        break;
      case '$=':
        if (!test.value || !value.endsWith(test.value)) return false;
        break;
      case '*=':
        if (!test.value || !value.includes(test.value)) return false;
        break;
      case '|=':
        if (value !== test.value && !value.startsWith(`${test.value}-`)) return false;
        break;
    }
  }
  for (const pseudo of compound.pseudo) {
    if (pseudo === 'root' && element.tag !== 'html') return false;
    if (pseudo === 'first-child' && elementSiblings(element)[0] !== element) return false;
    if (pseudo === 'last-child') {
      const siblings = elementSiblings(element);
      if (siblings[siblings.length - 1] !== element) return false;
    }
  }
  return true;
}

/** Whether the selector matches the element (right to left, greedy for descendant combinators). */
export function matchesSelector(element: EmailElement, selector: CompiledSelector): boolean {
  if (!matchesCompound(element, selector.compounds[0])) return false;
  let candidate: EmailElement | null = element;
  for (let index = 1; index < selector.compounds.length; index++) {
    const combinator = selector.combinators[index - 1];
    const compound = selector.compounds[index];
    candidate = candidate!.parent;
    if (combinator === '>') {
      if (!candidate || candidate.tag === '#document' || !matchesCompound(candidate, compound)) return false;
    } else {
      while (candidate && candidate.tag !== '#document' && !matchesCompound(candidate, compound)) candidate = candidate.parent;
      if (!candidate || candidate.tag === '#document') return false;
    }
  }
  return true;
}
