import type { AtRule, ChildNode, Container, Declaration, Rule } from 'postcss';
import type { HtmlElement } from '../parse/dom';
import { parseStylesheet } from '../parse/css-syntax';
import type { ParsedEmail } from '../parse/parse-email';
import { attributeValueRange, styleSheetOffset } from './source-ranges';

/** A CSS declaration as written in the source: where its value is, so a fix can replace exactly that. */
export interface SourceDeclaration {
  /** Lower-cased property (custom properties keep their case). */
  property: string;
  /** The value as written, without `!important`. */
  value: string;
  valueStart: number;
  valueEnd: number;
  /** Where the whole declaration starts (its property name), for insertions in front of it. */
  declarationStart: number;
  important: boolean;
  /** Where `!important` is written (after the value), when it is. */
  importantRange?: { start: number; end: number };
  /** The element whose `style` attribute holds it; undefined in a `<style>` block. */
  element?: HtmlElement;
  /** The selector of its rule in a `<style>` block. */
  selector?: string;
  /** The declarations of the same block, in order (this one included). */
  siblings: SourceDeclaration[];
  /** `@media …`, `@supports …` around it, outermost first. */
  atRules: string[];
}

const CACHE = new WeakMap<ParsedEmail, SourceDeclaration[]>();

function atRulesAround(node: ChildNode): string[] {
  const names: string[] = [];
  let parent = node.parent as ChildNode | undefined;
  while (parent && parent.type !== ('root' as string)) {
    if (parent.type === 'atrule') names.unshift(`@${(parent as AtRule).name} ${(parent as AtRule).params}`.trim());
    parent = parent.parent as ChildNode | undefined;
  }
  return names;
}

function fromPostcss(
  source: string,
  base: number,
  declaration: Declaration,
  extra: Pick<SourceDeclaration, 'element' | 'selector'>,
): SourceDeclaration | undefined {
  const start = declaration.source?.start?.offset;
  if (start === undefined) return undefined;
  const written = declaration.raws.value?.raw ?? declaration.value;
  const valueStart = base + start + declaration.prop.length + (declaration.raws.between ?? '').length;
  const valueEnd = valueStart + written.length;
  if (source.slice(base + start, base + start + declaration.prop.length) !== declaration.prop || source.slice(valueStart, valueEnd) !== written)
    return undefined;
  const important = declaration.important ? /^\s*!\s*important/i.exec(source.slice(valueEnd, valueEnd + 40)) : null;
  return {
    property: declaration.prop.startsWith('--') ? declaration.prop : declaration.prop.toLowerCase(),
    value: written,
    valueStart,
    valueEnd,
    declarationStart: base + start,
    important: declaration.important === true,
    ...(important ? { importantRange: { start: valueEnd, end: valueEnd + important[0].length } } : {}),
    siblings: [],
    atRules: atRulesAround(declaration),
    ...extra,
  };
}

function collectBlock(
  source: string,
  base: number,
  container: Container,
  extra: Pick<SourceDeclaration, 'element' | 'selector'>,
  into: SourceDeclaration[],
): void {
  const block: SourceDeclaration[] = [];
  for (const node of container.nodes ?? []) {
    if (node.type === 'decl') {
      const declaration = fromPostcss(source, base, node, extra);
      if (declaration) block.push(declaration);
    } else if (node.type === 'rule') {
      collectBlock(source, base, node, { selector: (node as Rule).selector }, into);
    } else if (node.type === 'atrule' && (node as AtRule).nodes) {
      collectBlock(source, base, node as AtRule, {}, into);
    }
  }
  for (const declaration of block) declaration.siblings = block;
  into.push(...block);
}

/**
 * Every declaration of the `<style>` blocks and of the `style` attributes written literally (without
 * character references), in document order of their blocks. Cached per parse.
 */
export function sourceDeclarations(parsed: ParsedEmail): SourceDeclaration[] {
  const cached = CACHE.get(parsed);
  if (cached) return cached;
  const declarations: SourceDeclaration[] = [];
  for (const sheet of parsed.styleSheets) {
    const base = styleSheetOffset(sheet);
    if (base === undefined || parsed.source.slice(base, base + sheet.text.length) !== sheet.text) continue;
    collectBlock(parsed.source, base, sheet.root, {}, declarations);
  }
  for (const [element, style] of parsed.inlineStyles) {
    const range = attributeValueRange(parsed.source, element, 'style', style.value);
    if (!range) continue;
    collectBlock(parsed.source, range.startOffset, parseStylesheet(style.value), { element }, declarations);
  }
  CACHE.set(parsed, declarations);
  return declarations;
}
