import type { Rule } from 'postcss';
import { getAttribute } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import type { FixRefusal, FixRule, TextEdit } from '../fix-model';
import { attributeValueRange, styleSheetOffset } from '../source-ranges';
import { lineAt } from '../text-edits';

/** What each character Gmail cannot take in a class name becomes (Maizzle's safeClassNames defaults). */
const REPLACEMENTS: Record<string, string> = {
  ':': '-',
  '/': '-',
  '\\': '-',
  '.': '_',
  ',': '_',
  '#': '_',
  '%': 'pc',
  '[': '',
  ']': '',
  '(': '',
  ')': '',
  '"': '',
  "'": '',
  '!': 'i-',
  '&': 'and-',
  '@': 'at-',
  '<': 'lt-',
  '>': 'gt-',
  '=': 'eq-',
  '|': 'or-',
  '?': 'q-',
  '*': 'all-',
  '+': 'plus-',
  '~': '-',
};

/** A class selector (`.sm\\:w-full`, `.w-1\\/2`, `.\\32xl\\:p-4`, `.plain`): only those with an escape are renamed. */
const CLASS_SELECTOR = /\.((?:[\w-]|[^\x00-\x7f]|\\[0-9a-f]{1,6}[ \t\n\r\f]?|\\[^\n\r\f0-9a-f])+)/gi;
const CSS_ESCAPE = /\\([0-9a-f]{1,6})[ \t\n\r\f]?|\\([^\n\r\f])/gi;

function unescapeCss(text: string): string {
  return text.replace(CSS_ESCAPE, (_match, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff) || 0xfffd) : (char as string),
  );
}

/** The name without the characters Gmail rejects, or undefined when no such name works as a plain selector. */
export function safeClassName(name: string): string | undefined {
  let safe = '';
  for (const char of name) safe += /[\w-]/.test(char) || char.charCodeAt(0) > 0x7f ? char : (REPLACEMENTS[char] ?? '-');
  // A class selector cannot start with a digit (or a hyphen and a digit) without an escape: `2xl:p-4` → `_2xl-p-4`.
  if (/^-?\d/.test(safe)) safe = `_${safe}`;
  return safe === '' || safe.startsWith('--') ? undefined : safe;
}

interface EscapedRule {
  start: number;
  end: number;
  selector: string;
  classes: Set<string>;
}

/** Rules of literal `<style>` blocks whose selector escapes a character, with where the selector is written. */
function escapedRules(parsed: ParsedEmail, refuse: (line: number, reason: string) => void): EscapedRule[] {
  const rules: EscapedRule[] = [];
  for (const sheet of parsed.styleSheets) {
    if (!sheet.text.includes('\\')) continue;
    const base = styleSheetOffset(sheet);
    const literal = base !== undefined && parsed.source.slice(base, base + sheet.text.length) === sheet.text;
    sheet.root.walkRules((rule: Rule) => {
      if (!rule.selector.includes('\\')) return;
      const written = (rule.raws.selector as { raw?: string } | undefined)?.raw ?? rule.selector;
      const offset = rule.source?.start?.offset;
      const start = base === undefined || offset === undefined ? -1 : base + offset;
      const line = start >= 0 ? lineAt(parsed, start) : sheet.line;
      if (!literal || start < 0 || parsed.source.slice(start, start + written.length) !== written) {
        refuse(line, `the selector ${rule.selector} is not written literally where the fix can edit it`);
        return;
      }
      const escaped = [...written.matchAll(CLASS_SELECTOR)].filter((match) => match[1].includes('\\'));
      const classes = new Set(escaped.map((match) => unescapeCss(match[1])));
      if (written.replace(CLASS_SELECTOR, '').includes('\\')) {
        refuse(line, `the selector ${written} escapes a character outside a class name`);
        return;
      }
      rules.push({ start, end: start + written.length, selector: written, classes });
    });
  }
  return rules;
}

/** Why a class cannot be renamed to `safe`, or undefined when it can. */
function renameProblem(parsed: ParsedEmail, name: string, safe: string | undefined, targets: Map<string, string[]>): string | undefined {
  if (!safe) return `the class ${name} has no safe name`;
  if (parsed.elementsByClass.has(safe) || (targets.get(safe)?.length ?? 0) > 1) return `the new name ${safe} for ${name} is taken already`;
  if (parsed.styleSheets.some((sheet) => new RegExp(`\\.${safe.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}(?![\\w-])`).test(sheet.text)))
    return `the new name ${safe} for ${name} is taken already`;
  for (const element of parsed.elementsByClass.get(name) ?? []) {
    const value = getAttribute(element, 'class') ?? '';
    if (!attributeValueRange(parsed.source, element, 'class', value)) return `a class attribute with ${name} is not written literally`;
  }
  if (parsed.comments.some((comment) => comment.data.includes(name)))
    return `the class ${name} is also written inside a comment (conditional markup the fix does not edit)`;
  return undefined;
}

/**
 * Escaped class selectors renamed (`.sm\:w-full` → `.sm-w-full`, `.w-1\/2` → `.w-1-2`, as Maizzle's
 * safeClassNames does) in the selectors and in every class attribute that uses them: Gmail removes a whole
 * `<style>` block with a backslash in a selector.
 */
export const safeClassNames: FixRule = {
  id: 'safe-class-names',
  tier: 'safe',
  resolves: [{ report: 'css', rule: 'gmail-escaped-selector' }],
  find({ parsed }) {
    const refusals: FixRefusal[] = [];
    const refuse = (line: number, reason: string) => refusals.push({ rule: this.id, line, reason });
    const rules = escapedRules(parsed, refuse);
    if (rules.length === 0) return { candidates: [], refusals };
    const renames = new Map<string, string | undefined>();
    for (const rule of rules) for (const name of rule.classes) renames.set(name, safeClassName(name));
    const targets = new Map<string, string[]>();
    for (const [name, safe] of renames) if (safe) targets.set(safe, [...(targets.get(safe) ?? []), name]);
    const blocked = new Set<string>();
    for (const [name, safe] of renames) {
      const problem = renameProblem(parsed, name, safe, targets);
      if (problem) {
        blocked.add(name);
        refuse(lineAt(parsed, rules.find((rule) => rule.classes.has(name))?.start ?? 0), problem);
      }
    }
    // A selector is renamed only with all its classes; a class only with all its selectors.
    for (let changed = true; changed;) {
      changed = false;
      for (const rule of rules) {
        if (![...rule.classes].some((name) => blocked.has(name))) continue;
        for (const name of rule.classes) {
          if (blocked.has(name)) continue;
          blocked.add(name);
          changed = true;
        }
      }
    }
    const edits: TextEdit[] = [];
    for (const rule of rules) {
      if ([...rule.classes].some((name) => blocked.has(name))) continue;
      const text = rule.selector.replace(CLASS_SELECTOR, (match, name: string) => (name.includes('\\') ? `.${renames.get(unescapeCss(name))}` : match));
      edits.push({ start: rule.start, end: rule.end, text });
    }
    const renamed = [...renames.keys()].filter((name) => !blocked.has(name));
    const elements = new Set(renamed.flatMap((name) => parsed.elementsByClass.get(name) ?? []));
    for (const element of elements) {
      const value = getAttribute(element, 'class') ?? '';
      const range = attributeValueRange(parsed.source, element, 'class', value);
      if (!range) continue;
      const text = value.replace(/\S+/g, (token) => (renamed.includes(token) ? (renames.get(token) as string) : token));
      edits.push({ start: range.startOffset, end: range.endOffset, text });
    }
    if (edits.length === 0) return { candidates: [], refusals };
    edits.sort((a, b) => a.start - b.start);
    const shown = renamed.slice(0, 4).map((name) => `${name} → ${renames.get(name)}`);
    const more = renamed.length > 4 ? ` and ${renamed.length - 4} more` : '';
    return {
      candidates: [
        {
          rule: this.id,
          line: lineAt(parsed, edits[0].start),
          edits,
          description: `class names Gmail would drop the <style> for renamed: ${shown.join(', ')}${more}`,
        },
      ],
      refusals,
    };
  },
};
