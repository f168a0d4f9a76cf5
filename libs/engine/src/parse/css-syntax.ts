import type { Root } from 'postcss';
import safeParse from 'postcss-safe-parser';

export interface CssDeclaration {
  /** Lower-cased property name (custom properties keep their case). */
  property: string;
  value: string;
  important: boolean;
  /** How `!important` was written when it differs from ` !important` (`!important`, ` ! important`): some clients read the spelling. */
  importantRaw?: string;
  /** 1-based position inside the CSS text it came from. */
  line: number;
  column: number;
}

const URL_NAME_BEFORE = /(^|[\t\n\f\r "'(),/:;[\]{}])url$/i;
const QUOTE_AFTER = /[\t\n\f\r ]*["']/y;

/**
 * Closes a string or an unquoted `url(` left open at the end of CSS text, as CSS does (a string or url
 * token ends at the end of the input: CSS Syntax 3, sections 4.3.5 and 4.3.6). postcss's tolerant tokenizer
 * instead treats an unclosed quote as a one-character token and searches on from the next character, so
 * every further quote in the rest of the text searches to the end again: `"` followed by 60,000 `\"`
 * (120 KB) took 55 s, `url(` repeated 125,000 times 1.2 s. Closed, the first search ends at the closing
 * character and the text is read once. The scan follows postcss's own rules (comments, escapes, an
 * unquoted `url(` reading up to the next unescaped `)`), so text with nothing left open is returned as it is.
 */
export function closeAtEndOfInput(text: string): string {
  const length = text.length;
  /** The text ended inside a string or url(: closed after dropping a trailing escape that has nothing to escape. */
  const closeWith = (closer: string) => {
    let backslashes = 0;
    while (backslashes < length && text.charCodeAt(length - 1 - backslashes) === 92) backslashes++;
    return (backslashes % 2 === 1 ? text.slice(0, -1) : text) + closer;
  };
  for (let i = 0; i < length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 92 /* \ */) {
      i++;
    } else if (ch === 47 /* / */ && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return text;
      i = end + 1;
    } else if (ch === 34 /* " */ || ch === 39 /* ' */) {
      for (i++; i < length && text.charCodeAt(i) !== ch; i++) if (text.charCodeAt(i) === 92) i++;
      if (i >= length) return closeWith(String.fromCharCode(ch));
    } else if (ch === 40 /* ( */ && URL_NAME_BEFORE.test(text.substring(i - 4, i))) {
      QUOTE_AFTER.lastIndex = i + 1;
      if (QUOTE_AFTER.test(text)) continue;
      for (i++; i < length && text.charCodeAt(i) !== 41 /* ) */; i++) if (text.charCodeAt(i) === 92) i++;
      if (i >= length) return closeWith(')');
    }
  }
  return text;
}

/** Parses a stylesheet tolerantly: broken CSS yields the rules a browser would still read. */
export function parseStylesheet(text: string): Root {
  return safeParse(closeAtEndOfInput(text)) as Root;
}

/** Parses the declarations of a `style` attribute. */
export function parseDeclarationList(text: string): CssDeclaration[] {
  const declarations: CssDeclaration[] = [];
  if (!text.includes(':')) return declarations;
  for (const node of safeParse(closeAtEndOfInput(text)).nodes) {
    if (node.type !== 'decl') continue;
    declarations.push({
      property: node.prop.startsWith('--') ? node.prop : node.prop.toLowerCase(),
      value: node.value,
      important: node.important === true,
      ...(node.important && node.raws.important !== undefined ? { importantRaw: node.raws.important } : {}),
      line: node.source?.start?.line ?? 1,
      column: node.source?.start?.column ?? 1,
    });
  }
  return declarations;
}

export function serializeDeclarations(declarations: readonly Pick<CssDeclaration, 'property' | 'value' | 'important'>[]): string {
  let out = '';
  for (const d of declarations) {
    if (out) out += '; ';
    out += `${d.property}: ${d.value}${d.important ? ' !important' : ''}`;
  }
  return out;
}

export interface ValueTokens {
  /** Lower-cased function names in the value: `calc`, `linear-gradient`, `var`. */
  functions: string[];
  /** Units of numeric values: `px`, `rem`, `%`. */
  units: string[];
  /** Lower-cased bare identifiers outside functions' names. */
  keywords: string[];
}

// An unclosed string or url( runs to the end of the value (as in CSS), so a failed match never rescans:
// repeated unclosed openers would otherwise cost quadratic time.
const STRING_OR_URL = /"(?:[^"\\]|\\[\s\S]?)*(?:"|$)|'(?:[^'\\]|\\[\s\S]?)*(?:'|$)|url\(\s*(?:"[^"]*"|'[^']*'|[^)]*)(?:\)|$)/gi;
const FUNCTION = /([a-z-]+)\(/gi;
const DIMENSION = /(^|[^\w#.\\-])[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?([a-z]+|%)/gi;
const IDENT = /(?:^|[\s,(/])(-?[a-z][a-z0-9-]*)(?![a-z0-9(-])/gi;

/** Splits a declaration value into the tokens the feature catalog looks for. */
export function scanValue(value: string): ValueTokens {
  const text = value.replace(STRING_OR_URL, (match) => (match.toLowerCase().startsWith('url') ? 'url()' : '""'));
  const functions: string[] = [];
  const units: string[] = [];
  const keywords: string[] = [];
  for (const match of text.matchAll(FUNCTION)) functions.push(match[1].toLowerCase());
  for (const match of text.matchAll(DIMENSION)) units.push(match[2].toLowerCase());
  for (const match of text.matchAll(IDENT)) keywords.push(match[1].toLowerCase());
  return { functions, units, keywords };
}

/** Deepest `{` nesting in CSS text (strings and comments skipped); bounds recursive tree walks. */
export function cssBraceDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 123 /* { */) {
      depth++;
      if (depth > max) max = depth;
    } else if (ch === 125 /* } */) {
      if (depth > 0) depth--;
    } else if (ch === 47 /* / */ && text.charCodeAt(i + 1) === 42 /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (ch === 34 || ch === 39) {
      const quote = ch;
      for (i++; i < text.length && text.charCodeAt(i) !== quote; i++) if (text.charCodeAt(i) === 92) i++;
    }
  }
  return max;
}
