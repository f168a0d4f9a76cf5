import { parentElement } from '../../parse/dom';
import type { HtmlElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import type { FixCandidate, FixRefusal, FixRule, TextEdit } from '../fix-model';
import { SourceDeclaration, sourceDeclarations } from '../source-declarations';
import { lineAt } from '../text-edits';
import { commaSeparatedColorValue, expandHex } from './css-value-rules';
import { replaceFunctionCalls, resolveCalc, resolveColorFunctions } from './static-functions';

/** Selectors whose custom properties every element of the body reads the same (inherited or matched). */
const GLOBAL_SELECTORS = new Set([':root', 'html', 'body', '*']);
/** Pseudo-elements a global rule may list beside them (Tailwind's `*, ::before, ::after`): no reader sits there. */
const PSEUDO_ELEMENT_PARTS = /^(?:\*)?::?(?:before|after|backdrop|marker)$/i;
const MAX_DEPTH = 8;
// Merge tags are filled in before sending; a value holding one is left as written.
const TEMPLATE_SYNTAX = /\{\{|\{%|\*\||%%|<%/;

interface VarLookup {
  /** Every literal definition, by name. */
  definitions: Map<string, SourceDeclaration[]>;
  /** Names also defined where no fix can read them (a `<style>` or attribute not written literally). */
  unreadable: Set<string>;
}

type Resolution = { value: string; names: Set<string> } | { refused: string };

function countDefinitions(parsed: ParsedEmail): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const sheet of parsed.styleSheets) {
    sheet.root.walkDecls((declaration) => {
      if (declaration.prop.startsWith('--')) add(declaration.prop);
    });
  }
  for (const style of parsed.inlineStyles.values())
    for (const declaration of style.declarations) if (declaration.property.startsWith('--')) add(declaration.property);
  return counts;
}

function buildLookup(parsed: ParsedEmail): VarLookup {
  const definitions = new Map<string, SourceDeclaration[]>();
  for (const declaration of sourceDeclarations(parsed)) {
    if (!declaration.property.startsWith('--')) continue;
    const list = definitions.get(declaration.property) ?? [];
    list.push(declaration);
    definitions.set(declaration.property, list);
  }
  const unreadable = new Set<string>();
  for (const [name, count] of countDefinitions(parsed)) if ((definitions.get(name)?.length ?? 0) !== count) unreadable.add(name);
  return { definitions, unreadable };
}

/** `all`, `root` or `body` for a top-level rule on `*`, `:root`/`html` or `body`; undefined for any other place. */
function globalScope(declaration: SourceDeclaration): 'all' | 'root' | 'body' | undefined {
  if (declaration.element || declaration.selector === undefined || declaration.atRules.length > 0) return undefined;
  const parts = declaration.selector
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => !PSEUDO_ELEMENT_PARTS.test(part));
  if (parts.length === 0 || parts.some((part) => !GLOBAL_SELECTORS.has(part))) return undefined;
  if (parts.includes('*')) return 'all';
  return parts.includes(':root') || parts.includes('html') ? 'root' : 'body';
}

function placeOf(parsed: ParsedEmail, declaration: SourceDeclaration): string {
  if (declaration.element) return `the style attribute of a <${declaration.element.tagName}> on line ${lineAt(parsed, declaration.valueStart)}`;
  const within = declaration.atRules.length > 0 ? ` inside ${declaration.atRules.join(' ')}` : '';
  return `the rule "${declaration.selector ?? ''}"${within}`;
}

function insideBody(element: HtmlElement): boolean {
  for (let current: HtmlElement | null = element; current; current = parentElement(current)) if (current.tagName === 'body') return true;
  return false;
}

/** Whether a `body` definition reaches the reader (html and head inherit nothing from body). */
function bodyReaches(reader: SourceDeclaration): boolean {
  if (reader.element) return insideBody(reader.element);
  return !/(?:^|,)\s*\*|(?:^|[\s,>+~])(?:html|:root|head)(?![\w-])/i.test(reader.selector ?? '');
}

/** The value `var(--name)` takes where `reader` is, or why that depends on more than the email's own definitions. */
function definitionFor(parsed: ParsedEmail, lookup: VarLookup, name: string, reader: SourceDeclaration): SourceDeclaration | null | { refused: string } {
  if (lookup.unreadable.has(name)) return { refused: `${name} is defined where the fix cannot read it` };
  const all = lookup.definitions.get(name) ?? [];
  const own = reader.element ? all.filter((definition) => definition.element === reader.element) : [];
  if (own.length > 0) {
    // An inline definition loses only to a !important one in a <style> rule.
    if (all.some((definition) => !definition.element && definition.important)) return { refused: `${name} has a !important definition in a <style> rule` };
    return own[own.length - 1];
  }
  if (all.length === 0) return null;
  if (all.length > 1)
    return { refused: `${name} is defined ${all.length} times (${all.map((d) => placeOf(parsed, d)).join('; ')}), so its value depends on the element` };
  const scope = globalScope(all[0]);
  if (!scope) return { refused: `${name} is defined in ${placeOf(parsed, all[0])}, not in a top-level rule on :root, html, body or *` };
  if (scope === 'body' && !bodyReaches(reader)) return { refused: `${name} is defined on body, which the element reading it does not inherit from` };
  return all[0];
}

function resolveVariables(parsed: ParsedEmail, lookup: VarLookup, value: string, reader: SourceDeclaration, depth: number, names: Set<string>): Resolution {
  if (depth > MAX_DEPTH) return { refused: 'custom properties refer to each other too deeply (or in a cycle)' };
  let refused: string | undefined;
  const outcome = replaceFunctionCalls(value, ['var'], (call, args) => {
    if (refused) return { refused };
    const name = args[0].trim();
    const definition = definitionFor(parsed, lookup, name, reader);
    if (definition && 'refused' in definition) return { refused: (refused = definition.refused) };
    names.add(name);
    let chosen: string;
    let context = reader;
    if (definition) {
      chosen = definition.value.trim();
      // A definition's own var() resolves where it is defined.
      context = definition;
    } else if (args.length > 1) {
      chosen = args.slice(1).join(',').trim();
    } else {
      return { refused: (refused = `${name} is not defined and ${call} has no fallback`) };
    }
    const inner = resolveVariables(parsed, lookup, chosen, context, depth + 1, names);
    if ('refused' in inner) return { refused: (refused = inner.refused) };
    return inner.value;
  });
  refused ??= outcome.refused;
  return refused ? { refused } : { value: outcome.value, names };
}

/** Text substitution equals CSS's token substitution unless a var() call touches the tokens around it (`var(--n)px`). */
function touchesNeighbors(value: string): boolean {
  return /[\w%.+-]var\(|var\([^()]*(?:\([^()]*\)[^()]*)*\)[\w%(]/i.test(value);
}

interface Rewrite {
  declaration: SourceDeclaration;
  value: string;
  /** Custom properties the new value no longer reads. */
  names: Set<string>;
}

function rewriteDeclaration(parsed: ParsedEmail, lookup: VarLookup, declaration: SourceDeclaration): { rewrite?: Rewrite; refused?: string } {
  let value = declaration.value;
  const names = new Set<string>();
  let refused: string | undefined;
  if (/var\(/i.test(value)) {
    const resolved = touchesNeighbors(value)
      ? { refused: 'a var() call is glued to the text around it' }
      : resolveVariables(parsed, lookup, value, declaration, 0, names);
    if ('refused' in resolved) refused = `${declaration.property}: var() stays: ${resolved.refused}`;
    else if (resolved.value.trim() === '' || /^,|,$|,\s*,/.test(resolved.value.trim()))
      refused = `${declaration.property}: var() stays: an empty value would be left`;
    else value = expandHex(commaSeparatedColorValue(resolved.value.trim()));
    // Only a declaration whose var() calls are all gone stops reading the names it looked up.
    if (refused) names.clear();
  }
  const calc = resolveCalc(value);
  const colors = resolveColorFunctions(calc.value);
  refused ??= calc.refused ?? colors.refused;
  if (colors.value === declaration.value) return refused ? { refused } : {};
  return { rewrite: { declaration, value: colors.value, names }, ...(refused ? { refused } : {}) };
}

const VAR_READ = (name: string) => new RegExp(`var\\(\\s*${name.replace(/[-\\]/g, '\\$&')}(?![\\w-])`, 'g');

/** Where a declaration's text ends with its `;` and, when it is alone on its line, the line itself. */
function removalRange(source: string, declaration: SourceDeclaration): TextEdit {
  let start = declaration.declarationStart;
  let end = declaration.importantRange?.end ?? declaration.valueEnd;
  const semicolon = /^\s*;[ \t]*/.exec(source.slice(end, end + 200));
  if (semicolon) end += semicolon[0].length;
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  if (/^[ \t]*$/.test(source.slice(lineStart, start)) && (source[end] === '\n' || source.startsWith('\r\n', end))) {
    start = lineStart;
    end += source[end] === '\n' ? 1 : 2;
  }
  return { start, end, text: '' };
}

/**
 * Definitions no var() reads once the rewrites are in (read only inside rewritten values or inside other
 * definitions also removed). Names nothing read to begin with are left alone: that is not this fix's business.
 */
function removableDefinitions(parsed: ParsedEmail, lookup: VarLookup, rewrites: readonly Rewrite[]): Map<string, SourceDeclaration[]> {
  const readers = (name: string) => rewrites.filter((rewrite) => rewrite.names.has(name));
  const removedRanges: number[][] = [];
  const isCovered = (name: string, offset: number) =>
    readers(name).some(({ declaration }) => offset >= declaration.valueStart && offset < declaration.valueEnd) ||
    removedRanges.some(([start, end]) => offset >= start && offset < end);
  const reads = new Map<string, number[]>();
  for (const name of lookup.definitions.keys()) {
    if (lookup.unreadable.has(name)) continue;
    const found = [...parsed.source.matchAll(VAR_READ(name))].map((match) => match.index as number);
    if (found.length > 0) reads.set(name, found);
  }
  const removable = new Map<string, SourceDeclaration[]>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, offsets] of reads) {
      if (removable.has(name) || !offsets.every((offset) => isCovered(name, offset))) continue;
      const definitions = lookup.definitions.get(name) as SourceDeclaration[];
      removable.set(name, definitions);
      for (const definition of definitions) removedRanges.push([definition.declarationStart, definition.importantRange?.end ?? definition.valueEnd]);
      changed = true;
    }
  }
  return removable;
}

/** Groups edits that must land together: a definition goes only with every rewrite that stops reading it. */
function groupCandidates(parsed: ParsedEmail, rule: string, rewrites: Rewrite[], removable: Map<string, SourceDeclaration[]>): FixCandidate[] {
  const removed = new Set([...removable.values()].flat());
  const kept = rewrites.filter((rewrite) => !removed.has(rewrite.declaration));
  const parent = new Map<object, object>();
  const find = (node: object): object => {
    const up = parent.get(node) ?? node;
    if (up === node) return node;
    const root = find(up);
    parent.set(node, root);
    return root;
  };
  const union = (a: object, b: object) => parent.set(find(a), find(b));
  for (const [name, definitions] of removable) {
    for (const definition of definitions) union(definition, definitions[0]);
    for (const rewrite of kept) if (rewrite.names.has(name)) union(rewrite, definitions[0]);
    // A removed definition that read another removed one goes with it.
    for (const other of removed) if (VAR_READ(name).test(other.value)) union(other, definitions[0]);
  }
  const groups = new Map<object, { edits: TextEdit[]; removed: string[]; properties: string[] }>();
  const groupOf = (node: object) => {
    const key = find(node);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { edits: [], removed: [], properties: [] }));
    return group;
  };
  for (const rewrite of kept) {
    const group = groupOf(rewrite);
    group.edits.push({ start: rewrite.declaration.valueStart, end: rewrite.declaration.valueEnd, text: rewrite.value });
    group.properties.push(rewrite.declaration.property);
  }
  for (const definition of removed) {
    const group = groupOf(definition);
    group.edits.push(removalRange(parsed.source, definition));
    group.removed.push(definition.property);
  }
  return [...groups.values()].map((group) => {
    group.edits.sort((a, b) => a.start - b.start);
    const removedText = group.removed.length > 0 ? `; ${[...new Set(group.removed)].join(', ')} no longer read, removed` : '';
    return {
      rule,
      line: lineAt(parsed, group.edits[0].start),
      edits: group.edits,
      description: `var(), calc() and color functions written as static values: ${[...new Set(group.properties)].join(', ') || 'definitions'}${removedText}`,
    };
  });
}

/**
 * `var()` resolved from the email's own definitions, `calc()` over one unit computed, and `color-mix()`,
 * `oklch()`, `lab()`, `lch()`, `oklab()` and `hwb()` written as hex or `rgba()`: what a browser computes,
 * written out for the clients that drop the declaration (Outlook, Gmail's whole `<style>` block over an
 * empty var() fallback, Fastmail's removal of custom properties).
 */
export const staticCssValues: FixRule = {
  id: 'static-css-values',
  tier: 'safe',
  resolves: [
    { report: 'css', rule: 'css-variables' },
    { report: 'css', rule: 'css-unit-calc' },
    { report: 'css', rule: 'css-modern-color' },
    { report: 'css', rule: 'gmail-empty-var-fallback' },
    { report: 'css', rule: 'gmail-lightness-color-attribute' },
    { report: 'css', rule: 'fastmail-custom-properties-removed' },
  ],
  find({ parsed }) {
    const rewrites: Rewrite[] = [];
    const refusals: FixRefusal[] = [];
    let lookup: VarLookup | undefined;
    for (const declaration of sourceDeclarations(parsed)) {
      if (!/(?:var|calc|color-mix|lch|lab|hwb)\(/i.test(declaration.value) || TEMPLATE_SYNTAX.test(declaration.value)) continue;
      lookup ??= buildLookup(parsed);
      const outcome = rewriteDeclaration(parsed, lookup, declaration);
      if (outcome.rewrite) rewrites.push(outcome.rewrite);
      if (outcome.refused) refusals.push({ rule: this.id, line: lineAt(parsed, declaration.valueStart), reason: outcome.refused });
    }
    if (!lookup || rewrites.length === 0) return { candidates: [], refusals };
    return { candidates: groupCandidates(parsed, this.id, rewrites, removableDefinitions(parsed, lookup, rewrites)), refusals };
  },
};
