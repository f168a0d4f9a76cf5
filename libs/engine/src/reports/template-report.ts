/**
 * Template syntax that survived into the HTML: merge tags of the common template languages and ESPs,
 * unbalanced template blocks, and leftovers of the framework the email was built with. The scanner is
 * a single pass with bounded look-ahead, so hostile input cannot make it backtrack.
 */
import type { CompileWarning } from '../compile/compile-format';
import { HtmlElement, childrenOf, isText } from '../parse/dom';
import type { EmailFormat, ReportContext } from './context/report-context';
import { attributeOffset, classList, nodeOffset, startOffsetOf } from './context/report-document';
import { sortIssues, type ReportIssue } from './context/report-issue';
import { shorten } from './context/text-utils';

export type TemplateLanguage =
  | 'handlebars'
  | 'mustache-style'
  | 'liquid-jinja'
  | 'erb'
  | 'mailchimp'
  | 'ampscript'
  | 'mailjet'
  | 'campaign-monitor'
  | 'mailgun'
  | 'template-literal'
  | 'jsx-expression';

export interface TemplateTag {
  tag: string;
  language: TemplateLanguage;
  count: number;
  /** First occurrence. */
  line?: number;
  column?: number;
  location: 'text' | 'attribute' | 'style';
}

export interface TemplateReport {
  format: EmailFormat;
  /** Occurrences of unresolved template syntax. */
  unresolvedCount: number;
  tags: TemplateTag[];
  issues: ReportIssue[];
}

/** Longest template tag the scanner looks for a closer within. */
const MAX_TAG_LENGTH = 500;
const MAX_DISTINCT_TAGS = 200;
/** Every opener the scanner recognizes (two characters each); strings without one are skipped unscanned. */
const TEMPLATE_OPENERS = /\{[{%#]|<%|\*\||%[%A-Za-z_]|\[[[A-Za-z_]|\$\{/;
/** JSX text also has `{name}` expressions. */
const JSX_TEXT_OPENERS = new RegExp(`${TEMPLATE_OPENERS.source}|\\{[A-Za-z_]`);
/** The same, global: the scanner jumps from one opener to the next (the regex engine skips plain text far faster than a loop). */
const NEXT_OPENER = new RegExp(TEMPLATE_OPENERS.source, 'g');
const NEXT_JSX_OPENER = new RegExp(JSX_TEXT_OPENERS.source, 'g');

const LIQUID_BLOCKS = new Set([
  'if',
  'unless',
  'for',
  'case',
  'capture',
  'block',
  'macro',
  'raw',
  'comment',
  'with',
  'filter',
  'tablerow',
  'paginate',
  'form',
  'call',
  'autoescape',
  'spaceless',
  'verbatim',
  'embed',
  'apply',
  'sandbox',
]);

const LABEL: Record<TemplateLanguage, string> = {
  handlebars: 'Handlebars',
  'mustache-style': 'Handlebars/Mustache/Liquid/Jinja',
  'liquid-jinja': 'Liquid/Jinja',
  erb: 'ERB/EJS',
  mailchimp: 'Mailchimp merge tag',
  ampscript: 'AMPscript',
  mailjet: 'Mailjet',
  'campaign-monitor': 'Campaign Monitor',
  mailgun: 'Mailgun/Brevo variable',
  'template-literal': 'template literal',
  'jsx-expression': 'JSX expression',
};

interface Found {
  tag: string;
  language: TemplateLanguage;
  offset: number;
}

interface Unclosed {
  opener: string;
  offset: number;
}

function isIdentifierChar(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || char === '_';
}

function isIdentifierStart(char: string | undefined): boolean {
  return char !== undefined && isIdentifierChar(char) && !(char >= '0' && char <= '9');
}

/** Reads `[A-Za-z_][\w.-]*` from `start` up to `max` characters; returns its end or -1. */
function identifierEnd(text: string, start: number, max = 60, extra = '.-'): number {
  if (!isIdentifierStart(text[start])) return -1;
  let end = start + 1;
  while (end < text.length && end - start <= max && (isIdentifierChar(text[end]) || extra.includes(text[end]))) end++;
  return end - start > max ? -1 : end;
}

/** Index of `closer` within MAX_TAG_LENGTH of `from`; searching a bounded window keeps the scan linear. */
function closerWithin(text: string, closer: string, from: number): number {
  const windowEnd = Math.min(text.length, from + MAX_TAG_LENGTH + closer.length);
  const at = text.slice(from, windowEnd).indexOf(closer);
  return at === -1 ? -1 : from + at;
}

function classifyDoubleBrace(inner: string): TemplateLanguage {
  const trimmed = inner.replace(/^[~\s-]+/, '');
  if (trimmed.includes('var:') || trimmed.startsWith('mj:')) return 'mailjet';
  if ('#/^>!'.includes(trimmed[0] ?? '') || trimmed.startsWith('else')) return 'handlebars';
  if (inner.includes('|')) return 'liquid-jinja';
  return 'mustache-style';
}

interface ScanResult {
  found: Found[];
  unclosed: Unclosed[];
}

/**
 * Finds template syntax in one string. `css` is true for CSS, where `{#` cannot be Jinja and `${` is not
 * a template literal.
 */
export function scanTemplateSyntax(text: string, options: { jsx: boolean; css: boolean }): ScanResult {
  const found: Found[] = [];
  const unclosed: Unclosed[] = [];
  const openers = options.jsx ? NEXT_JSX_OPENER : NEXT_OPENER;
  let i = 0;
  while (i < text.length) {
    // Every branch below starts at an opener (two characters): skip to the next one.
    openers.lastIndex = i;
    if (!openers.test(text)) break;
    i = openers.lastIndex - 2;
    const char = text[i];
    const next = text[i + 1];
    // Each scanner reads the tag at i into found/unclosed and answers where the scan goes on.
    if (char === '{' && next === '{') i = scanDoubleBrace(text, i, found, unclosed);
    else if (char === '{' && (next === '%' || (next === '#' && !options.css))) i = scanBraceBlock(text, i, found, unclosed);
    else if (char === '<' && next === '%') i = scanErb(text, i, found, unclosed);
    else if (char === '*' && next === '|') i = scanMailchimp(text, i, found);
    else if (char === '%' && next === '%') i = scanAmpscript(text, i, found, unclosed);
    else if (char === '%' && isIdentifierStart(next) && !isIdentifierChar(text[i - 1])) i = scanMailgunVariable(text, i, found);
    else if (char === '[' && next === '[') i = scanMailjetBrackets(text, i, found);
    else if (char === '[' && isIdentifierStart(next)) i = scanCampaignMonitor(text, i, found);
    else if (char === '$' && next === '{' && !options.css) i = scanTemplateLiteral(text, i, found);
    else if (char === '{' && options.jsx && !options.css && isIdentifierStart(next)) i = scanJsxExpression(text, i, found);
    else i++;
  }
  return { found, unclosed };
}

/** `{{ … }}` and `{{{ … }}}`. */
function scanDoubleBrace(text: string, i: number, found: Found[], unclosed: Unclosed[]): number {
  const triple = text[i + 2] === '{';
  const closer = triple ? '}}}' : '}}';
  const end = closerWithin(text, closer, i + closer.length);
  if (end === -1) {
    unclosed.push({ opener: closer === '}}}' ? '{{{' : '{{', offset: i });
    return i + 2;
  }
  const inner = text.slice(i + closer.length, end);
  found.push({ tag: text.slice(i, end + closer.length), language: triple ? 'handlebars' : classifyDoubleBrace(inner), offset: i });
  return end + closer.length;
}

/** `{% … %}` and the `{# … #}` comment; an unclosed comment is not reported. */
function scanBraceBlock(text: string, i: number, found: Found[], unclosed: Unclosed[]): number {
  const next = text[i + 1];
  const closer = next === '%' ? '%}' : '#}';
  const end = closerWithin(text, closer, i + 2);
  if (end === -1) {
    if (next === '%') unclosed.push({ opener: '{%', offset: i });
    return i + 2;
  }
  found.push({ tag: text.slice(i, end + 2), language: text.slice(i, end).includes('var:') ? 'mailjet' : 'liquid-jinja', offset: i });
  return end + 2;
}

/** `<% … %>` (ERB, EJS). */
function scanErb(text: string, i: number, found: Found[], unclosed: Unclosed[]): number {
  const end = closerWithin(text, '%>', i + 2);
  if (end === -1) {
    unclosed.push({ opener: '<%', offset: i });
    return i + 2;
  }
  found.push({ tag: text.slice(i, end + 2), language: 'erb', offset: i });
  return end + 2;
}

/** `*|FNAME|*`; an empty `*||*` is no tag. */
function scanMailchimp(text: string, i: number, found: Found[]): number {
  const end = closerWithin(text, '|*', i + 2);
  if (end === -1 || end === i + 2) return i + 2;
  found.push({ tag: text.slice(i, end + 2), language: 'mailchimp', offset: i });
  return end + 2;
}

/** AMPscript: `%%=v(@name)=%%`, `%%[ … ]%%` and `%%FirstName%%`. */
function scanAmpscript(text: string, i: number, found: Found[], unclosed: Unclosed[]): number {
  const third = text[i + 2];
  if (third === '=' || third === '[') {
    const closer = third === '=' ? '=%%' : ']%%';
    const end = closerWithin(text, closer, i + 3);
    if (end === -1) {
      unclosed.push({ opener: `%%${third}`, offset: i });
      return i + 3;
    }
    found.push({ tag: text.slice(i, end + 3), language: 'ampscript', offset: i });
    return end + 3;
  }
  const end = identifierEnd(text, i + 2);
  if (end === -1 || text[end] !== '%' || text[end + 1] !== '%') return i + 2;
  found.push({ tag: text.slice(i, end + 2), language: 'ampscript', offset: i });
  return end + 2;
}

/** Mailgun / Brevo style: %recipient.first_name%, %unsubscribe_url%; needs a dot or underscore so that "20% off 30%" is not a tag. */
function scanMailgunVariable(text: string, i: number, found: Found[]): number {
  const end = identifierEnd(text, i + 1, 60, '._');
  const name = end === -1 ? '' : text.slice(i + 1, end);
  if (end === -1 || text[end] !== '%' || !(name.includes('.') || name.includes('_'))) return i + 1;
  found.push({ tag: text.slice(i, end + 1), language: 'mailgun', offset: i });
  return end + 1;
}

/** Mailjet: `[[var:firstname]]`. */
function scanMailjetBrackets(text: string, i: number, found: Found[]): number {
  const end = closerWithin(text, ']]', i + 2);
  const inner = end === -1 ? '' : text.slice(i + 2, end);
  if (end === -1 || inner.length === 0 || inner.includes('[') || identifierEnd(inner, 0, 200, '.-:"\' ,=') === -1) return i + 2;
  found.push({ tag: text.slice(i, end + 2), language: 'mailjet', offset: i });
  return end + 2;
}

/** Campaign Monitor: [firstname,fallback=there]. */
function scanCampaignMonitor(text: string, i: number, found: Found[]): number {
  const end = identifierEnd(text, i + 1, 60, '_');
  if (end === -1 || !text.startsWith(',fallback=', end)) return i + 1;
  const close = closerWithin(text, ']', end);
  if (close === -1) return i + 1;
  found.push({ tag: text.slice(i, close + 1), language: 'campaign-monitor', offset: i });
  return close + 1;
}

/** A JavaScript template literal left unevaluated: `${user.name}`. */
function scanTemplateLiteral(text: string, i: number, found: Found[]): number {
  const end = closerWithin(text, '}', i + 2);
  if (end === -1 || identifierEnd(text, i + 2, 200, '._ ()[]\'"?:|&+-') !== end) return i + 2;
  found.push({ tag: text.slice(i, end + 1), language: 'template-literal', offset: i });
  return end + 1;
}

/** A JSX expression React never evaluated: {user.firstName}. */
function scanJsxExpression(text: string, i: number, found: Found[]): number {
  const end = identifierEnd(text, i + 1, 60, '._');
  if (end === -1 || text[end] !== '}' || end - i - 1 < 2) return i + 1;
  found.push({ tag: text.slice(i, end + 1), language: 'jsx-expression', offset: i });
  return end + 1;
}

interface BlockTag {
  name: string;
  closing: boolean;
  language: 'liquid-jinja' | 'handlebars';
  offset: number;
  tag: string;
}

function blockTagOf(found: Found): BlockTag | null {
  if (found.tag.startsWith('{%')) {
    const inner = found.tag.slice(2, -2).replace(/^[-+~\s]+/, '');
    const name = inner.split(/[\s(%-]/, 1)[0].toLowerCase();
    if (name.startsWith('end') && LIQUID_BLOCKS.has(name.slice(3)))
      return { name: name.slice(3), closing: true, language: 'liquid-jinja', offset: found.offset, tag: found.tag };
    // "{% set x = 1 %}" is a statement; "{% set x %}…{% endset %}" is a block.
    if (name === 'set' && !inner.includes('=')) return { name, closing: false, language: 'liquid-jinja', offset: found.offset, tag: found.tag };
    if (name === 'endset') return { name: 'set', closing: true, language: 'liquid-jinja', offset: found.offset, tag: found.tag };
    if (LIQUID_BLOCKS.has(name)) return { name, closing: false, language: 'liquid-jinja', offset: found.offset, tag: found.tag };
    return null;
  }
  if (found.tag.startsWith('{{') && !found.tag.startsWith('{{{')) {
    const inner = found.tag.slice(2, -2).replace(/^[~\s]+/, '');
    const sigil = inner[0];
    if (sigil === '#' || sigil === '^' || sigil === '/') {
      const name = inner
        .slice(1)
        .trim()
        .split(/[\s}~]/, 1)[0];
      if (!name || name.startsWith('>')) return null;
      return { name, closing: sigil === '/', language: 'handlebars', offset: found.offset, tag: found.tag };
    }
  }
  return null;
}

const TAILWIND_PREFIXES = [
  'm-',
  'mx-',
  'my-',
  'mt-',
  'mr-',
  'mb-',
  'ml-',
  'ms-',
  'me-',
  'p-',
  'px-',
  'py-',
  'pt-',
  'pr-',
  'pb-',
  'pl-',
  'ps-',
  'pe-',
  'w-',
  'h-',
  'min-w-',
  'max-w-',
  'min-h-',
  'max-h-',
  'text-',
  'bg-',
  'font-',
  'leading-',
  'tracking-',
  'border-',
  'rounded-',
  'gap-',
  'space-',
  'align-',
  'shadow-',
  'opacity-',
  'items-',
  'justify-',
  'inset-',
  'top-',
  'left-',
  'right-',
  'bottom-',
  'z-',
  'decoration-',
  'underline-',
  'list-',
  'table-',
  'whitespace-',
  'break-',
  'object-',
];
const TAILWIND_WORDS = new Set([
  'block',
  'inline-block',
  'inline',
  'hidden',
  'flex',
  'grid',
  'table',
  'table-cell',
  'table-row',
  'underline',
  'no-underline',
  'uppercase',
  'lowercase',
  'capitalize',
  'italic',
  'not-italic',
  'truncate',
  'border',
  'rounded',
  'shadow',
  'mx-auto',
  'relative',
  'absolute',
  'static',
  'fixed',
  'sticky',
  'antialiased',
  'contents',
  'sr-only',
]);

export function looksLikeTailwindClass(token: string): boolean {
  if (token.length > 80) return false;
  const base = token.includes(':') ? token.slice(token.lastIndexOf(':') + 1) : token;
  const unprefixed = base.startsWith('!') || base.startsWith('-') ? base.slice(1) : base;
  if (token.includes(':') && unprefixed.length > 0) return true;
  if (unprefixed.includes('[') && unprefixed.endsWith(']')) return true;
  return TAILWIND_WORDS.has(unprefixed) || TAILWIND_PREFIXES.some((prefix) => unprefixed.startsWith(prefix) && unprefixed.length > prefix.length);
}

/** Every class name a `<style>` rule mentions, in any position of its selectors. */
function styledClassNames(context: ReportContext): Set<string> {
  const names = new Set<string>();
  for (const rule of context.sheet.rules) {
    const selector = rule.selectorText;
    for (let i = 0; i < selector.length; i++) {
      if (selector[i] !== '.') continue;
      let name = '';
      let j = i + 1;
      while (j < selector.length) {
        const char = selector[j];
        if (char === '\\' && j + 1 < selector.length) {
          name += selector[j + 1];
          j += 2;
        } else if (/[\w-]/.test(char) || char.charCodeAt(0) > 127) {
          name += char;
          j++;
        } else break;
      }
      if (name) names.add(name);
      i = j - 1;
    }
  }
  return names;
}

const MAIZZLE_TAGS = new Set([
  'extends',
  'block',
  'yield',
  'fill',
  'slot',
  'stack',
  'push',
  'outlook',
  'not-outlook',
  'raw',
  'if',
  'elseif',
  'else',
  'each',
  'switch',
  'case',
  'default',
  'component',
  'markdown',
  'md',
  'fetch',
  'include',
  'module',
  'layout',
  'env',
]);
const REACT_ATTRIBUTES = new Set(['classname', 'htmlfor', 'onclick', 'onchange', 'dangerouslysetinnerhtml', 'stylename']);
const LEFTOVER_VALUES = new Set(['undefined', '[object object]', 'nan', 'null']);

type TagLocation = TemplateTag['location'];

/** What one report's scan collects: one object per email, passed to plain functions rather than closures. */
interface TemplateScan {
  doc: ReportContext['doc'];
  jsx: boolean;
  /** Inlined emails repeat the same attribute values hundreds of times: each distinct string is scanned once. */
  scanned: Record<TagLocation, Map<string, ScanResult>>;
  /** Distinct tags by language and text, in order of first occurrence. */
  tags: Map<string, TemplateTag>;
  unresolvedCount: number;
  /** Template blocks opened and not yet closed, innermost last. */
  blockStack: BlockTag[];
  /** Kept apart from `issues` and appended after them, so issues at the same position keep their order. */
  blockProblems: ReportIssue[];
  issues: ReportIssue[];
}

export function buildTemplateReport(context: ReportContext, compileWarnings: readonly CompileWarning[] = []): TemplateReport {
  const { doc, format } = context;
  const scan: TemplateScan = {
    doc,
    jsx: format === 'jsx',
    scanned: { text: new Map(), attribute: new Map(), style: new Map() },
    tags: new Map(),
    unresolvedCount: 0,
    blockStack: [],
    blockProblems: [],
    issues: [],
  };
  scanDocument(scan);
  const { issues, tags } = scan;
  reportUnclosedBlocks(scan);
  issues.push(...scan.blockProblems);
  for (const tag of tags.values()) issues.push(unresolvedTagIssue(tag));

  checkFrameworkLeftovers(context, issues);
  for (const warning of compileWarnings) issues.push(compileWarningIssue(warning, format));

  const sortedTags = [...tags.values()].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || (a.tag < b.tag ? -1 : 1));
  return { format, unresolvedCount: scan.unresolvedCount, tags: sortedTags, issues: sortIssues(issues) };
}

/** Scans every attribute value and text of the document, and the tags the parse set aside in front of the head. */
function scanDocument(scan: TemplateScan): void {
  const { doc } = scan;
  // Tags the parse blanked in front of the head (parse/template-prologue.ts), read where they stand in the source.
  const prologue = doc.parsed.prologueTemplateTags;
  let nextPrologueTag = 0;
  for (const element of doc.parsed.elements) {
    const elementStart = nextPrologueTag < prologue.length ? startOffsetOf(element) : -1;
    while (nextPrologueTag < prologue.length && elementStart !== -1 && prologue[nextPrologueTag].offset < elementStart) {
      const tag = prologue[nextPrologueTag++];
      recordTemplateSyntax(scan, tag.text, tag.offset, 'text');
    }
    for (const attr of element.attrs) {
      if (!mayHoldTemplateSyntax(attr.value, 'attribute', scan.jsx)) continue;
      recordTemplateSyntax(scan, attr.value, attributeOffset(element, attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name), 'attribute');
    }
    const location = element.tagName === 'style' ? 'style' : 'text';
    for (const child of childrenOf(element)) {
      if (!isText(child)) continue;
      if (mayHoldTemplateSyntax(child.value, location, scan.jsx)) recordTemplateSyntax(scan, child.value, nodeOffset(child), location);
      if (child.value.includes('[object Object]')) {
        scan.issues.push({
          rule: 'react-value-leftover',
          severity: 'error',
          message: 'The text contains "[object Object]": an object was rendered where text was expected.',
          ...doc.positionAt(nodeOffset(child)),
        });
      }
    }
  }
  for (const tag of prologue.slice(nextPrologueTag)) recordTemplateSyntax(scan, tag.text, tag.offset, 'text');
}

/** Whether a string may hold template syntax; most hold none and are never scanned. */
function mayHoldTemplateSyntax(text: string, location: TagLocation, jsx: boolean): boolean {
  return text.length >= 2 && (jsx && location === 'text' ? JSX_TEXT_OPENERS : TEMPLATE_OPENERS).test(text);
}

/** Scans one string found at `baseOffset` of the source (-1: unknown) and records its tags, blocks and unclosed tags. */
function recordTemplateSyntax(scan: TemplateScan, text: string, baseOffset: number, location: TagLocation): void {
  let result = scan.scanned[location].get(text);
  if (!result) {
    result = scanTemplateSyntax(text, { jsx: scan.jsx && location === 'text', css: location === 'style' });
    scan.scanned[location].set(text, result);
  }
  const { found, unclosed } = result;
  if (found.length === 0 && unclosed.length === 0) return;
  for (const item of found) {
    // {# … #} and {{! … }} are template comments: harmless if left, but still unrendered.
    scan.unresolvedCount++;
    countTag(scan, item, baseOffset, location);
    const block = blockTagOf(item);
    if (block) trackBlock(scan, block, item, baseOffset);
  }
  for (const item of unclosed) {
    scan.issues.push({
      rule: 'unclosed-template-tag',
      severity: 'error',
      message: `"${item.opener}" opens a template tag that never closes; the raw syntax will show in the inbox.`,
      ...scan.doc.positionAt(baseOffset >= 0 ? baseOffset + item.offset : -1),
    });
  }
}

/** Counts one occurrence of a tag; the first of each distinct tag keeps its position (up to MAX_DISTINCT_TAGS). */
function countTag(scan: TemplateScan, item: Found, baseOffset: number, location: TagLocation): void {
  const key = `${item.language}\u0000${item.tag}`;
  const existing = scan.tags.get(key);
  if (existing) existing.count++;
  else if (scan.tags.size < MAX_DISTINCT_TAGS) {
    const position = scan.doc.positionAt(baseOffset >= 0 ? baseOffset + item.offset : -1);
    scan.tags.set(key, { tag: shorten(item.tag, 120), language: item.language, count: 1, ...position, location });
  }
}

/** Opens or closes a template block; a closer without its opener is a problem at once. */
function trackBlock(scan: TemplateScan, block: BlockTag, item: Found, baseOffset: number): void {
  const { blockStack } = scan;
  if (!block.closing) {
    blockStack.push({ ...block, offset: baseOffset >= 0 ? baseOffset + item.offset : -1 });
    return;
  }
  const openIndex = findLastIndex(blockStack, (open) => open.name === block.name && open.language === block.language);
  if (openIndex !== -1) {
    blockStack.splice(openIndex);
    return;
  }
  scan.blockProblems.push({
    rule: 'unbalanced-template-block',
    severity: 'error',
    message: `${shorten(item.tag, 60)} closes a ${block.name} block that was never opened.`,
    ...scan.doc.positionAt(baseOffset >= 0 ? baseOffset + item.offset : -1),
  });
}

/** Blocks still open when the document ends. */
function reportUnclosedBlocks(scan: TemplateScan): void {
  for (const open of scan.blockStack) {
    scan.blockProblems.push({
      rule: 'unbalanced-template-block',
      severity: 'error',
      message: `${shorten(open.tag, 60)} opens a ${open.name} block that is never closed.`,
      ...scan.doc.positionAt(open.offset),
    });
  }
}

function unresolvedTagIssue(tag: TemplateTag): ReportIssue {
  return {
    rule: 'unresolved-merge-tag',
    severity: 'warning',
    message: `Unresolved ${LABEL[tag.language]} syntax ${tag.tag}${tag.count > 1 ? ` (${tag.count}×)` : ''}: it shows literally unless your sending platform fills it in.`,
    line: tag.line,
    column: tag.column,
  };
}

function compileWarningIssue(warning: CompileWarning, format: EmailFormat): ReportIssue {
  return {
    rule: format === 'mjml' ? 'mjml-validation' : 'compile-warning',
    severity: 'warning',
    message: warning.message,
    ...(warning.line !== undefined ? { line: warning.line } : {}),
    ...(warning.line !== undefined && warning.column !== undefined ? { column: warning.column } : {}),
  };
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i])) return i;
  return -1;
}

function checkFrameworkLeftovers(context: ReportContext, issues: ReportIssue[]): void {
  const { doc, format } = context;
  const at = (element: HtmlElement) => doc.at(element);
  const styled = format === 'maizzle' ? styledClassNames(context) : new Set<string>();
  let tailwindIssues = 0;
  let tailwindOmitted = 0;

  for (const element of doc.parsed.elements) {
    const tag = element.tagName;
    if (tag.startsWith('mj-')) {
      issues.push({ rule: 'unrendered-mjml', severity: 'error', message: `<${tag}> is MJML that was never compiled; clients ignore it.`, ...at(element) });
    } else if (tag.startsWith('x-') && tag.length > 2) {
      issues.push({ rule: 'unrendered-component', severity: 'error', message: `<${tag}> is a template component that was never rendered.`, ...at(element) });
    }

    if (format === 'maizzle') {
      if (MAIZZLE_TAGS.has(tag)) {
        issues.push({
          rule: 'unrendered-maizzle-tag',
          severity: 'error',
          message: `<${tag}> is Maizzle template markup that was not rendered.`,
          ...at(element),
        });
      }
      const leftovers = classList(element).filter((token) => looksLikeTailwindClass(token) && !styled.has(token));
      if (leftovers.length > 0) {
        if (tailwindIssues < 50) {
          tailwindIssues++;
          issues.push({
            rule: 'uninlined-tailwind-class',
            severity: 'warning',
            message: `Tailwind class${leftovers.length > 1 ? 'es' : ''} ${leftovers.slice(0, 6).join(' ')} ${leftovers.length > 1 ? 'have' : 'has'} no CSS in the output: it was neither inlined nor kept in a <style> block, so it does nothing.`,
            ...at(element),
          });
        } else tailwindOmitted++;
      }
    }

    if (format === 'jsx') {
      // React renders lower-case tags; a capitalised tag in the output is a component that never rendered.
      const start = startOffsetOf(element);
      const nameStart = start >= 0 ? doc.source.charAt(start + 1) : '';
      if (nameStart >= 'A' && nameStart <= 'Z') {
        issues.push({
          rule: 'unrendered-component',
          severity: 'error',
          message: `<${doc.source.slice(start + 1, start + 1 + tag.length)}> is a React component that was never rendered.`,
          ...at(element),
        });
      }
      for (const { name, value } of element.attrs) {
        if (REACT_ATTRIBUTES.has(name)) {
          issues.push({
            rule: 'react-attribute-leftover',
            severity: 'error',
            message: `The attribute "${name}" is React syntax that reached the HTML; clients ignore it.`,
            ...at(element),
          });
        } else if (LEFTOVER_VALUES.has(value.trim().toLowerCase()) && name !== 'alt' && name !== 'title') {
          issues.push({ rule: 'react-value-leftover', severity: 'error', message: `${name}="${value}" comes from a missing prop or value.`, ...at(element) });
        } else if (name === 'style' && (value.includes('NaN') || value.includes('undefined'))) {
          issues.push({
            rule: 'react-value-leftover',
            severity: 'error',
            message: 'The style attribute contains NaN or undefined from a missing value.',
            ...at(element),
          });
        }
      }
    }
  }
  if (tailwindOmitted > 0) {
    issues.push({ rule: 'uninlined-tailwind-class', severity: 'warning', message: `${tailwindOmitted} more elements carry Tailwind classes without CSS.` });
  }
  if (format === 'maizzle' && doc.source.trimStart().startsWith('---')) {
    issues.push({
      rule: 'front-matter-leftover',
      severity: 'error',
      message: 'The HTML starts with front matter (---) that the build should have removed.',
      line: 1,
      column: 1,
    });
  }
}
