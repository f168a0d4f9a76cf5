import { getTrackedFeature } from '../../clients/feature-catalog';
import { CLIENT_IDS, type ClientId } from '../../clients/email-client';
import { getAttribute } from '../../parse/dom';
import { parseCssColor } from '../../reports/context/color-utils';
import { GENERIC_FAMILIES, normalizeStack } from '../../reports/design-report';
import type { FixCandidate, FixRefusal, FixRule, FixRuleContext, TextEdit } from '../fix-model';
import { SourceDeclaration, sourceDeclarations } from '../source-declarations';
import { attributeValueRange } from '../source-ranges';
import { lineAt } from '../text-edits';

/** The clients caniemail does not list as fully supporting a feature. */
function clientsWithoutFullSupport(featureId: string): ClientId[] {
  const byClient = getTrackedFeature(featureId)?.support.byClient;
  return byClient ? CLIENT_IDS.filter((_client, index) => byClient[index].level !== 'supported') : [];
}

type ValueRewrite = (declaration: SourceDeclaration) => string | undefined;

/** One candidate per declaration whose value `rewrite` changes (the value's characters only). */
function rewriteValues(context: FixRuleContext, rule: string, description: string, rewrite: ValueRewrite): FixCandidate[] {
  const candidates: FixCandidate[] = [];
  for (const declaration of sourceDeclarations(context.parsed)) {
    const value = rewrite(declaration);
    if (value === undefined || value === declaration.value) continue;
    candidates.push({
      rule,
      line: lineAt(context.parsed, declaration.valueStart),
      edits: [{ start: declaration.valueStart, end: declaration.valueEnd, text: value }],
      description: `${description}: ${declaration.property}`,
    });
  }
  return candidates;
}

const THREE_DIGIT_HEX = /#([0-9a-f])([0-9a-f])([0-9a-f])(?![\w-])/gi;
const COLOR_ATTRIBUTES = ['bgcolor', 'color', 'bordercolor', 'fillcolor', 'strokecolor'];

export function expandHex(value: string): string {
  return value.replace(THREE_DIGIT_HEX, (_match, r: string, g: string, b: string) => `#${r}${r}${g}${g}${b}${b}`);
}

/** `#fff` → `#ffffff`: some clients (Outlook's Word engine in color attributes, older webmail) read only six digits. */
export const sixDigitHex: FixRule = {
  id: 'six-digit-hex',
  tier: 'safe',
  resolves: [],
  find(context) {
    const candidates = rewriteValues(context, this.id, '3-digit hex colors written with 6 digits', (declaration) =>
      declaration.property.startsWith('--') || /url\(/i.test(declaration.value) ? undefined : expandHex(declaration.value),
    );
    const { parsed } = context;
    for (const element of parsed.elements) {
      for (const name of COLOR_ATTRIBUTES) {
        const value = getAttribute(element, name);
        if (value === undefined || !/^\s*#[0-9a-f]{3}\s*$/i.test(value)) continue;
        const range = attributeValueRange(parsed.source, element, name, value);
        if (!range) continue;
        candidates.push({
          rule: this.id,
          line: lineAt(parsed, range.startOffset),
          edits: [{ start: range.startOffset, end: range.endOffset, text: expandHex(value) }],
          description: `3-digit hex color written with 6 digits: ${name} attribute`,
        });
      }
    }
    return { candidates, refusals: [] };
  },
};

const SERIF_HINT = /serif|georgia|times|garamond|palatino|baskerville|cambria|bodoni|didot|merriweather|playfair|lora|caslon|book antiqua|minion/i;
const MONOSPACE_HINT = /mono|courier|consolas|menlo|monaco|source code/i;

function genericFor(firstFamily: string): string {
  if (MONOSPACE_HINT.test(firstFamily)) return 'monospace';
  if (SERIF_HINT.test(firstFamily) && !/sans/i.test(firstFamily)) return 'serif';
  return 'sans-serif';
}

/** A font stack that ends without a generic family gets the one its first font belongs to. */
export const genericFontFamily: FixRule = {
  id: 'generic-font-family',
  tier: 'safe',
  resolves: [{ report: 'design', rule: 'font-stack-no-generic' }],
  find(context) {
    const candidates = rewriteValues(context, this.id, 'a generic family after custom fonts', (declaration) => {
      if (declaration.property !== 'font-family' || /var\(|inherit|initial|unset|revert/i.test(declaration.value)) return undefined;
      const families = normalizeStack(declaration.value);
      if (families.length === 0 || families.some((family) => GENERIC_FAMILIES.has(family))) return undefined;
      return `${declaration.value.replace(/\s+$/, '')}, ${genericFor(families[0])}`;
    });
    return { candidates, refusals: [] };
  },
};

/** Splits at top-level commas (not inside parentheses). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

const GRADIENT = /(?:repeating-)?(?:linear|radial|conic)-gradient\(/i;

/** The first color stop of the value's first gradient, as written; undefined when it is not a plain color. */
export function firstGradientStop(value: string): string | undefined {
  const match = GRADIENT.exec(value);
  if (!match) return undefined;
  let depth = 1;
  let end = match.index + match[0].length;
  for (; end < value.length && depth > 0; end++) {
    if (value[end] === '(') depth++;
    else if (value[end] === ')') depth--;
  }
  for (const argument of splitTopLevel(value.slice(match.index + match[0].length, end - 1))) {
    // The stop's color is its first token (a function counts whole): "#ff0000 10%", "rgba(0,0,0,.5) 20px".
    const token = /^(?:[a-z-]+\([^)]*\)|#[0-9a-f]+|[a-z]+)/i.exec(argument)?.[0];
    if (token && !/^(?:to|at|from|in)$/i.test(token) && parseCssColor(token)) return token;
    if (token && /^(?:#|rgb|hsl)/i.test(token)) return undefined;
  }
  return undefined;
}

/** `background-color` from a gradient's first stop, in front of it: clients that drop the gradient show that color. */
export const gradientFallbackColor: FixRule = {
  id: 'gradient-fallback-color',
  tier: 'safe',
  resolves: [],
  // The clients caniemail says show a linear gradient partly or not at all (Outlook, Yahoo, AOL, Gmail on Android, Samsung).
  helps: clientsWithoutFullSupport('css-linear-gradient'),
  find(context) {
    const candidates: FixCandidate[] = [];
    for (const declaration of sourceDeclarations(context.parsed)) {
      if (declaration.property !== 'background' && declaration.property !== 'background-image') continue;
      const stop = firstGradientStop(declaration.value);
      if (!stop) continue;
      // A color the block already sets (a background-color, or a background shorthand with a color before it) wins.
      const index = declaration.siblings.indexOf(declaration);
      const earlier = declaration.siblings.slice(0, index);
      if (declaration.siblings.some((other) => other.property === 'background-color')) continue;
      if (earlier.some((other) => other.property === 'background' && !GRADIENT.test(other.value) && !/url\(/i.test(other.value))) continue;
      const edit: TextEdit = { start: declaration.declarationStart, end: declaration.declarationStart, text: `background-color: ${stop}; ` };
      candidates.push({
        rule: this.id,
        line: lineAt(context.parsed, declaration.declarationStart),
        edits: [edit],
        description: `background-color ${stop} (the gradient's first stop) in front of the gradient`,
      });
    }
    return { candidates, refusals: [] };
  },
};

const DISPLAY_CONFLICT =
  'display keeps "!important" without a space: Yahoo ignores display with " !important" and the Word engine reads "value!important" as the value, so no spelling serves both';

/**
 * `!IMPORTANT` → ` !important`, `color:red!important` → `color:red !important`: Gmail drops a block or
 * attribute with any uppercase letter in it, and Outlook's Word engine reads "value!important" as part of
 * the value. Lower case with a space before the "!" reads the same everywhere.
 */
export const normalizeImportant: FixRule = {
  id: 'normalize-important',
  tier: 'safe',
  resolves: [
    { report: 'css', rule: 'gmail-uppercase-important' },
    { report: 'css', rule: 'gmail-uppercase-important-attribute' },
    { report: 'css', rule: 'word-important-without-space' },
  ],
  find({ parsed }) {
    const candidates: FixCandidate[] = [];
    const refusals: FixRefusal[] = [];
    for (const declaration of sourceDeclarations(parsed)) {
      const range = declaration.importantRange;
      if (!range) continue;
      const written = parsed.source.slice(range.start, range.end);
      // Yahoo ignores display with " !important" (the space): display keeps its spacing, only lower-cased.
      const wanted = declaration.property === 'display' ? written.toLowerCase() : ' !important';
      if (written === wanted || (declaration.property !== 'display' && /^\s+!important$/.test(written))) {
        if (declaration.property === 'display' && !/^\s/.test(written))
          refusals.push({ rule: this.id, line: lineAt(parsed, range.start), reason: DISPLAY_CONFLICT });
        continue;
      }
      candidates.push({
        rule: this.id,
        line: lineAt(parsed, range.start),
        edits: [{ start: range.start, end: range.end, text: wanted }],
        description: `"${written.trim()}" written as " !important": ${declaration.property}`,
      });
    }
    return { candidates, refusals };
  },
};

const SPACE_SEPARATED_RGB = /\b(rgba?|hsla?)\(\s*([^,()]+?)\s*\)/gi;

/** `rgb(0 0 0 / 50%)` → `rgba(0, 0, 0, 0.5)` in a value (also for values other fixes write). */
export function commaSeparatedColorValue(value: string): string {
  return value.replace(SPACE_SEPARATED_RGB, (match, name: string, body: string) => {
    const [channels, alpha] = body.split('/').map((part) => part.trim());
    const parts = channels.split(/\s+/);
    if (parts.length !== 3 || /var\(|calc\(/i.test(body)) return match;
    const base = name.toLowerCase().replace(/a$/, '');
    if (alpha === undefined) return `${base}(${parts.join(', ')})`;
    const opacity = alpha.endsWith('%') ? Number.parseFloat(alpha) / 100 : Number.parseFloat(alpha);
    if (!Number.isFinite(opacity)) return match;
    return `${base}a(${parts.join(', ')}, ${Number(opacity.toFixed(3))})`;
  });
}

/** `rgb(0 0 0 / 50%)` → `rgba(0, 0, 0, 0.5)`: Gmail drops the block or attribute with the space-separated syntax. */
export const commaSeparatedColors: FixRule = {
  id: 'comma-separated-colors',
  tier: 'safe',
  resolves: [
    { report: 'css', rule: 'gmail-space-separated-rgb' },
    { report: 'css', rule: 'gmail-space-separated-rgb-attribute' },
  ],
  find(context) {
    const candidates = rewriteValues(context, this.id, 'space-separated color written with commas', (declaration) =>
      declaration.property.startsWith('--') ? undefined : commaSeparatedColorValue(declaration.value),
    );
    return { candidates, refusals: [] };
  },
};
