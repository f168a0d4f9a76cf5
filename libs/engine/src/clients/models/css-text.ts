import type { ChildNode, Root } from 'postcss';

// An unclosed string or url( runs to the end of the value (as in CSS), so a failed match never rescans: repeated
// unclosed openers (hostile input) would otherwise cost quadratic time.
const STRING_OR_URL = /url\(\s*(?:"[^"]*"|'[^']*'|[^)]*)(?:\)|$)|"(?:[^"\\]|\\[\s\S]?)*(?:"|$)|'(?:[^'\\]|\\[\s\S]?)*(?:'|$)/gi;

/** A CSS value with its strings and `url(...)` arguments blanked, so that characters inside them never count. */
export function outsideStringsAndUrls(value: string): string {
  return value.replace(STRING_OR_URL, '""');
}

/** The first node of a tree that `test` accepts, in document order. */
export function findNode(root: Root, test: (node: ChildNode) => boolean): ChildNode | undefined {
  let found: ChildNode | undefined;
  root.walk((node) => {
    if (found) return false;
    if (test(node)) {
      found = node;
      return false;
    }
    return undefined;
  });
  return found;
}

/** `!important` spelled with an uppercase letter (`!IMPORTANT`, `! Important`). */
export const UPPERCASE_IMPORTANT = /!\s*(?=[a-z]*[A-Z])[iI][mM][pP][oO][rR][tT][aA][nN][tT]/;

/** CSS Color 4's space-separated `rgb(0 128 0)` / `rgba(0 128 0 / 1)`. */
export const SPACE_SEPARATED_RGB = /\brgba?\(\s*[-+.\d]+%?\s+[-+.\d]+%?\s+[-+.\d]+%?\s*(?:\/\s*[-+.\d]+%?\s*)?\)/i;

/** The lightness-based color functions of CSS Color 4. */
export const LIGHTNESS_COLOR_FUNCTION = /\b(?:ok)?(?:lch|lab)\(/i;

/** A selector with a backslash escape (Tailwind's `.sm\:w-full`, `.w-1\/2`). */
export const ESCAPED_SELECTOR = /\\/;

/** `var(--x,)`: a custom property with an empty fallback. */
export const EMPTY_VAR_FALLBACK = /var\(\s*--[\w-]+\s*,\s*\)/i;

/** Characters a strict sanitizer cannot place in a declaration value (outside strings and url()). */
export const STRAY_VALUE_CHARACTERS = /[=*$^|?<>{}[\]]|\\9\b|\\\d/;

/** A style attribute with a character a strict webmail parser rejects outside strings and url() (Gmail, Outlook.com). */
export function hasStrayCharacter(styleAttribute: string): boolean {
  // Most attributes hold none of the characters anywhere: one scan, no copies.
  if (!STRAY_VALUE_CHARACTERS.test(styleAttribute)) return false;
  return STRAY_VALUE_CHARACTERS.test(outsideStringsAndUrls(withoutTemplateTags(styleAttribute).replace(/!\s*important/gi, '')));
}

// Merge tags and template syntax ({{ x }}, {% if %}, *|FNAME|*, %%x%%) are replaced before the email is sent.
const TEMPLATE_TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}|\*\|[^|*]*\|\*|%%[^%]*%%/g;

/** CSS text with template tags blanked: what the client receives once the sending platform filled them in. */
export function withoutTemplateTags(text: string): string {
  return text.includes('{') || text.includes('|') || text.includes('%%') ? text.replace(TEMPLATE_TAG, 'x') : text;
}

/** The top-level comma of a media query list (`screen and (max-width:600px), print`). */
export function hasTopLevelComma(params: string): boolean {
  let depth = 0;
  for (const char of params) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) return true;
  }
  return false;
}

/** A value with its top-level commas (outside parentheses) deleted. */
export function removeTopLevelCommas(value: string): string {
  let depth = 0;
  let out = '';
  for (const char of value) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      if (!out.endsWith(' ')) out += ' ';
      continue;
    }
    out += char;
  }
  return out.replace(/ {2,}/g, ' ');
}

/** Media features of a prelude, lower-cased (`max-width`, `prefers-color-scheme`). */
export function mediaFeatures(params: string): string[] {
  return [...params.matchAll(/\(\s*([a-z-]+)\s*(?:[:<>=)])/gi)].map((match) => match[1].toLowerCase());
}

/** Negative lengths (`-10px`, `-1em`), not hyphenated words. */
export const NEGATIVE_LENGTH = /(^|[\s,(])-(?:\d|\.\d)/;

/** `@media (prefers-color-scheme: dark)`. */
export function isDarkSchemeQuery(params: string): boolean {
  return /prefers-color-scheme\s*:\s*dark/i.test(params);
}

/**
 * A selector that reads the class or id attribute as text (`[class="a"]`, `[id^="x"]`): a client that prefixes
 * those names changes the text, so such a selector no longer matches (a limit of every prefixing client).
 */
export function readsPrefixedAttribute(selector: string): boolean {
  return /\[\s*(?:class|id)\s*(?:[~|^$*]?=|\])/i.test(selector);
}

export const PREFIXED_ATTRIBUTE_LIMIT = 'an attribute selector on class or id reads the prefixed names';
