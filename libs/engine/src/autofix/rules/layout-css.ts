import type { Declaration } from 'postcss';
import type { MatchedRule } from '../../analysis/style-cascade';
import type { RewriteBehavior } from '../../clients/models/client-behavior';
import { CLIENT_MODELS } from '../../clients/models/client-models';
import { withoutTemplateTags } from '../../clients/models/css-text';
import { parseDeclarationList } from '../../parse/css-syntax';
import type { HtmlElement } from '../../parse/dom';
import { getAttribute, isElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import type { TextEdit } from '../fix-model';
import { addAttributeEdit, attributeValueRange, startTagRange } from '../source-ranges';

/**
 * Selectors written for what a client adds to the email (Outlook.com's `.ExternalClass` and `x_` names,
 * Gmail's `u + .body` and `.gmail` classes, Yahoo's `yiv` ids, Word's `Mso` classes, Outlook's
 * `#MessageViewBody`, Apple's data detectors): they match nothing in the email as written, by design.
 */
export const CLIENT_HACK =
  /\.ExternalClass|\.ReadMsgBody|\.yshortcuts|\.gmail|#MessageViewBody|#outlook\b|\.x_|\.yiv|#yiv|\.Mso|\.im\b|\[x-apple-data-detectors|\[data-ogs[cb]|(?:^|[\s>+~])u\s*[+~]|\bo:p\b/i;

/**
 * For a selector that applies once a client changed the email (a client hack, or one testing an attribute a
 * client adds: `[data-ogsc] .title`, `u + .body a`), its last compound without attribute tests and
 * pseudo-classes (`.title`, `a`): the elements it may then apply to. Undefined for other selectors.
 */
export function clientContextSelector(selector: string): string | undefined {
  if (!CLIENT_HACK.test(selector) && !selector.includes('[')) return undefined;
  let depth = 0;
  let from = 0;
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    else if (depth === 0 && /[\s>+~]/.test(ch)) from = i + 1;
  }
  const key = selector
    .slice(from)
    .replace(/\[[^\]]*\]/g, '')
    .replace(/::?[a-z-]+(?:\((?:[^()]|\([^()]*\))*\))?/gi, '')
    .trim();
  return key === '' ? '*' : key;
}

/** A declaration to write into a `style` attribute. */
export interface StyleDeclaration {
  property: string;
  value: string;
  important: boolean;
}

/**
 * Whether two properties set some of the same longhands: equal, one the shorthand of the other
 * (`padding` / `padding-left`, `background` / `background-color`), or two parts of the border (whose
 * shorthands cross: `border-color` and `border-left` both set the left border's color).
 */
export function propertiesOverlap(a: string, b: string): boolean {
  if (a === b || b.startsWith(`${a}-`) || a.startsWith(`${b}-`)) return true;
  return a.startsWith('border') && b.startsWith('border') && !a.includes('radius') && !b.includes('radius');
}

/** A value written on one line (a `<style>` value may wrap), trimmed. */
export function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/**
 * The declarations of the top-level `<style>` rules an element matches, as the cascade settles them:
 * per property the winner (importance, then specificity, then source order), listed in that order so that
 * written one after another in a `style` attribute, a shorthand never undoes a longhand that beat it.
 */
export function sheetWinners(matches: readonly MatchedRule[]): StyleDeclaration[] {
  const written: Array<{ declaration: Declaration; rank: number }> = [];
  for (const match of matches) for (const declaration of match.declarations) written.push({ declaration, rank: written.length });
  // Matches come in cascade order (specificity, then source order); important ones go after every normal one.
  written.sort((a, b) => Number(a.declaration.important === true) - Number(b.declaration.important === true) || a.rank - b.rank);
  const last = new Map<string, number>();
  const list = written.map(({ declaration }) => ({
    property: declaration.prop.startsWith('--') ? declaration.prop : declaration.prop.toLowerCase(),
    value: oneLine(declaration.value),
    important: declaration.important === true,
  }));
  list.forEach((declaration, index) => last.set(declaration.property, index));
  return list.filter((declaration, index) => last.get(declaration.property) === index);
}

interface InlineBehaviors {
  /** Tests of the behaviors that drop a whole `style` attribute over its text (Gmail's strict parser, Outlook.com's). */
  dropsAttribute: Array<(raw: string) => boolean>;
  rewrites: RewriteBehavior[];
}

let inlineBehaviors: InlineBehaviors | undefined;

function behaviorsReadingInlineStyles(): InlineBehaviors {
  if (inlineBehaviors) return inlineBehaviors;
  const found: InlineBehaviors = { dropsAttribute: [], rewrites: [] };
  for (const model of Object.values(CLIENT_MODELS)) {
    for (const behavior of model.behaviors) {
      if (behavior.kind !== 'rewrite') continue;
      if (behavior.dropsStyleAttribute) found.dropsAttribute.push(behavior.dropsStyleAttribute.bind(behavior));
      if (behavior.rewrite) found.rewrites.push(behavior);
    }
  }
  inlineBehaviors = found;
  return found;
}

function readsProperty(behavior: RewriteBehavior, property: string): boolean {
  if (!behavior.properties) return true;
  return behavior.properties.some((name) => (name.endsWith('*') ? property.startsWith(name.slice(0, -1)) : name === property));
}

/**
 * Whether some client treats this declaration worse in a `style` attribute than in `<style>`: it drops the
 * whole attribute over it (Gmail and `rgb(0 0 0)`), or rewrites it only there (Proton Mail unsets inline
 * `left` and `top`, which would show a preheader hidden off-screen). Such a declaration stays in `<style>`.
 */
export function someClientTreatsWorseInline(declaration: StyleDeclaration): boolean {
  const behaviors = behaviorsReadingInlineStyles();
  const raw = `${declaration.property}: ${declaration.value}`;
  if (behaviors.dropsAttribute.some((drops) => drops(raw))) return true;
  const decl = { property: declaration.property, value: declaration.value, important: declaration.important };
  for (const behavior of behaviors.rewrites) {
    if (!readsProperty(behavior, declaration.property) || (behavior.importantOnly && !decl.important)) continue;
    if (behavior.valueMatches && !behavior.valueMatches.test(decl.value)) continue;
    const inline = behavior.rewrite?.(decl, { inline: true, raw });
    const sheet = behavior.rewrite?.(decl, { inline: false, raw });
    if (JSON.stringify(inline) !== JSON.stringify(sheet)) return true;
  }
  return false;
}

/** `property: value` as written into an attribute quoted with `quote`; undefined when the value needs character references. */
export function declarationText(declaration: StyleDeclaration, quote: '"' | "'"): string | undefined {
  let { value } = declaration;
  if (/[&<]/.test(value)) return undefined;
  if (value.includes(quote)) {
    const other = quote === '"' ? "'" : '"';
    if (value.includes(other)) return undefined;
    value = value.split(quote).join(other);
  }
  return `${declaration.property}: ${value}${declaration.important ? ' !important' : ''}`;
}

/**
 * The edit that appends declarations to the element's `style` attribute (after its own, which it leaves
 * byte-identical), or adds `style="…"` when it has none. The edit rewrites the closing quote (or the
 * character that ends the start tag), so that two fixes of one attribute overlap and the second waits for
 * the next pass instead of writing a second `style` attribute. Undefined when the attribute is not
 * written literally (character references), the start tag was implied, or a value cannot be quoted.
 */
export function appendStyleEdit(source: string, element: HtmlElement, declarations: readonly StyleDeclaration[]): TextEdit | undefined {
  const tag = startTagRange(element);
  if (declarations.length === 0 || !tag) return undefined;
  const current = getAttribute(element, 'style');
  if (current === undefined) {
    const texts = declarations.map((declaration) => declarationText(declaration, '"'));
    const added = texts.some((text) => text === undefined) ? undefined : addAttributeEdit(source, element, `style="${texts.join('; ')}"`);
    if (!added || added.start >= tag.endOffset) return undefined;
    return { start: added.start, end: added.start + 1, text: `${added.text}${source[added.start]}` };
  }
  const range = attributeValueRange(source, element, 'style', current);
  if (!range) return undefined;
  const opener = source[range.startOffset - 1];
  const quoted = (opener === '"' || opener === "'") && source[range.endOffset] === opener;
  const texts = declarations.map((declaration) => declarationText(declaration, quoted ? (opener as '"' | "'") : '"'));
  if (texts.some((text) => text === undefined)) return undefined;
  const added = texts.join('; ');
  if (!quoted) {
    if (/["'`=<>]/.test(current)) return undefined;
    const own = current.replace(/;?\s*$/, '');
    return { start: range.startOffset, end: range.endOffset, text: `"${own ? `${own}; ` : ''}${added}"` };
  }
  const trimmed = current.replace(/\s+$/, '');
  const separator = trimmed === '' ? '' : trimmed.endsWith(';') ? (trimmed === current ? ' ' : '') : '; ';
  return { start: range.endOffset, end: range.endOffset + 1, text: `${separator}${added}${opener}` };
}

/** Whether the element is `<body>` or inside it (what a reader sees; the head's elements take no styles). */
export function inBody(element: HtmlElement): boolean {
  for (let node: HtmlElement | null = element; node; node = node.parentNode && isElement(node.parentNode) ? node.parentNode : null) {
    if (node.tagName === 'body') return true;
    if (node.tagName === 'head' || node.tagName === 'template' || node.tagName === 'svg' || node.tagName === 'math') return false;
  }
  return false;
}

/** A pixel length (`600`, `600px`, `0`): its number; undefined for anything else (%, em, auto). */
export function pixels(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)(?:px)?\s*$/i.exec(value);
  if (!match) return undefined;
  return Number(match[1]);
}

/**
 * The declarations of the element's own `style` attribute. Template tags are read as the values they
 * stand for (`color:{{ brand }}` sets color), which the parse alone would not see.
 */
export function inlineDeclarations(parsed: ParsedEmail, element: HtmlElement): readonly StyleDeclaration[] {
  const style = parsed.inlineStyles.get(element);
  if (!style) return [];
  const blanked = withoutTemplateTags(style.value);
  return blanked === style.value ? style.declarations : parseDeclarationList(blanked);
}

/**
 * The element's declarations from top-level `<style>` rules and its `style` attribute, in the order the
 * cascade applies them (normal ones of the rules, then of the attribute, then the `!important` ones the same
 * way): the last one of a property is its value. Values as written (a merge tag in a url() included).
 * Undefined when a template tag hides part of the attribute from the parse.
 */
export function appliedDeclarations(parsed: ParsedEmail, matches: readonly MatchedRule[] | undefined, element: HtmlElement): StyleDeclaration[] | undefined {
  const own = parsed.inlineStyles.get(element)?.declarations ?? [];
  if (inlineDeclarations(parsed, element).length !== own.length) return undefined;
  const sheet: StyleDeclaration[] = [];
  for (const match of matches ?? []) {
    for (const declaration of match.declarations) {
      sheet.push({ property: declaration.prop.toLowerCase(), value: oneLine(declaration.value), important: declaration.important === true });
    }
  }
  const inline = own.map((declaration) => ({ property: declaration.property, value: oneLine(declaration.value), important: declaration.important }));
  const normal = (declaration: StyleDeclaration) => !declaration.important;
  const important = (declaration: StyleDeclaration) => declaration.important;
  return [...sheet.filter(normal), ...inline.filter(normal), ...sheet.filter(important), ...inline.filter(important)];
}

/** The last of the declarations that sets one of these properties. */
export function lastOf(declarations: readonly StyleDeclaration[], properties: readonly string[]): StyleDeclaration | undefined {
  for (let i = declarations.length - 1; i >= 0; i--) if (properties.includes(declarations[i].property)) return declarations[i];
  return undefined;
}
