import type { AtRule, ChildNode, Declaration, Rule } from 'postcss';
import { CSS21_PROPERTIES, STANDARD_CSS_PROPERTIES } from '../clients/css-properties';
import { CssDeclaration, scanValue } from '../parse/css-syntax';
import { HtmlElement, getAttribute, positionOf } from '../parse/dom';
import { EmailStyleSheet, ParsedEmail, cssNodePosition } from '../parse/parse-email';
import {
  AT_RULE_FEATURES,
  ATTRIBUTE_FEATURES,
  BASE64_IMAGE_FEATURE,
  BUTTON_TYPE_FEATURES,
  ELEMENT_FEATURES,
  FUNCTION_FEATURES,
  IMAGE_FORMAT_FEATURES,
  INPUT_TYPE_FEATURES,
  MARKUP_FEATURES,
  MEDIA_FEATURE_FEATURES,
  MISC_CSS_FEATURES,
  PROPERTY_FEATURES,
  PSEUDO_FEATURES,
  SELECTOR_FEATURES,
  UNIT_FEATURES,
  VALUE_FEATURES,
  getTrackedFeature,
} from '../clients/feature-catalog';
import { SelectorCache } from './style-cascade';

/** One thing the email uses that the catalog tracks, e.g. `border-radius` or `<svg>`. */
export interface FeatureUse {
  /** Stable key: the label, unique per thing used. */
  label: string;
  /** caniemail slugs describing it (several only for overlapping caniemail entries); empty for `unknown`. */
  featureIds: readonly string[];
  /** A standard property caniemail has no data for. */
  unknownProperty?: boolean;
}

/** Every use of one label in the email, aggregated: first position and how often. */
export interface FeatureHit extends FeatureUse {
  line: number;
  column: number;
  occurrences: number;
}

/** The features an email uses, plus per-node lists the transforms reuse. */
export interface CollectedFeatures {
  hits: FeatureHit[];
  /** Features of each distinct inline declaration object (shared by equal `style` strings). */
  inlineDeclarationUses: ReadonlyMap<CssDeclaration, readonly FeatureUse[]>;
  /** Features of each rule, at-rule and declaration inside `<style>` blocks. */
  cssNodeUses: ReadonlyMap<ChildNode, readonly FeatureUse[]>;
  /** `@media (prefers-color-scheme: dark)` blocks, in source order. */
  darkSchemeBlocks: readonly AtRule[];
  hasColorSchemeMeta: boolean;
  /** Elements whose features are tracked (for transforms that remove them). */
  elementUses: ReadonlyMap<HtmlElement, readonly FeatureUse[]>;
}

const useCache = new Map<string, FeatureUse>();
function use(label: string, featureIds: readonly string[], unknownProperty = false): FeatureUse {
  const key = `${label}\u0000${featureIds.join(',')}`;
  let cached = useCache.get(key);
  if (!cached) {
    cached = { label, featureIds, ...(unknownProperty ? { unknownProperty } : {}) };
    useCache.set(key, cached);
  }
  return cached;
}
/** single(id) per catalog id (null: not tracked), so the hot paths skip use()'s key building. */
const singleCache = new Map<string, FeatureUse | null>();
function single(id: string): FeatureUse | undefined {
  let cached = singleCache.get(id);
  if (cached === undefined) {
    const feature = getTrackedFeature(id);
    cached = feature ? use(feature.label, [id]) : null;
    singleCache.set(id, cached);
  }
  return cached ?? undefined;
}

const FONT_PROPERTIES = new Set(['font', 'font-family']);

/** Features of one declaration, memoised per (property, value, importance). */
export class DeclarationFeatureReader {
  private readonly cache = new Map<string, FeatureUse[]>();

  read(property: string, value: string, important: boolean): FeatureUse[] {
    const key = `${property}\u0000${value}\u0000${important ? 1 : 0}`;
    let uses = this.cache.get(key);
    if (!uses) {
      uses = this.compute(property, value, important);
      this.cache.set(key, uses);
    }
    return uses;
  }

  private compute(property: string, value: string, important: boolean): FeatureUse[] {
    const uses: FeatureUse[] = [];
    const push = (u: FeatureUse | undefined): void => {
      if (u && !uses.includes(u)) uses.push(u);
    };
    const lowerValue = value.trim().toLowerCase();
    if (property.startsWith('--')) push(single(MISC_CSS_FEATURES.variables));
    else if (property === 'display' && VALUE_FEATURES.display[lowerValue.split(/\s+/)[0]]) push(single(VALUE_FEATURES.display[lowerValue.split(/\s+/)[0]]));
    else {
      const ids = PROPERTY_FEATURES.get(property);
      if (ids) push(use(property, ids));
      else if (STANDARD_CSS_PROPERTIES.has(property) && !CSS21_PROPERTIES.has(property)) push(use(property, [], true));
    }
    if (important) push(single(MISC_CSS_FEATURES.important));
    const tokens = scanValue(value);
    for (const fn of tokens.functions) if (FUNCTION_FEATURES[fn]) push(single(FUNCTION_FEATURES[fn]));
    for (const unit of tokens.units) if (UNIT_FEATURES[unit]) push(single(UNIT_FEATURES[unit]));
    for (const keyword of tokens.keywords) {
      if (keyword === 'initial') push(single(MISC_CSS_FEATURES.initial));
      else if (VALUE_FEATURES.intrinsicSizes.includes(keyword)) push(single(MISC_CSS_FEATURES.intrinsicSize));
      else if (FONT_PROPERTIES.has(property) && VALUE_FEATURES.systemFonts.includes(keyword)) push(single(MISC_CSS_FEATURES.systemUi));
    }
    return uses;
  }
}

function selectorUses(selectorText: string, selectors: SelectorCache): FeatureUse[] {
  const uses: FeatureUse[] = [];
  const push = (id: string | undefined): void => {
    const u = id ? single(id) : undefined;
    if (u && !uses.includes(u)) uses.push(u);
  };
  const list = selectors.list(selectorText);
  if (list.length > 1) push(SELECTOR_FEATURES.grouping);
  for (const selector of list) {
    if (selector.usesClass) push(SELECTOR_FEATURES.class);
    if (selector.usesId) push(SELECTOR_FEATURES.id);
    if (selector.usesType) push(SELECTOR_FEATURES.type);
    if (selector.usesUniversal) push(SELECTOR_FEATURES.universal);
    if (selector.usesAttribute) push(SELECTOR_FEATURES.attribute);
    if (selector.usesChaining) push(SELECTOR_FEATURES.chaining);
    for (const combinator of selector.combinators) {
      push(
        combinator === ' '
          ? SELECTOR_FEATURES.descendant
          : combinator === '>'
            ? SELECTOR_FEATURES.child
            : combinator === '+'
              ? SELECTOR_FEATURES.adjacentSibling
              : SELECTOR_FEATURES.generalSibling,
      );
    }
    for (const pseudo of [...selector.pseudoClasses, ...selector.pseudoElements]) push(PSEUDO_FEATURES[pseudo]);
  }
  return uses;
}

const MEDIA_FEATURE = /\(\s*([a-z-]+)\s*[:)]/gi;

function atRuleUses(atRule: AtRule): FeatureUse[] {
  const uses: FeatureUse[] = [];
  const name = atRule.name.toLowerCase();
  const base = AT_RULE_FEATURES[name] ? single(AT_RULE_FEATURES[name]) : undefined;
  if (base) uses.push(base);
  if (name === 'media') {
    for (const match of atRule.params.matchAll(MEDIA_FEATURE)) {
      const id = MEDIA_FEATURE_FEATURES[match[1].toLowerCase()];
      const u = id ? single(id) : undefined;
      if (u && !uses.includes(u)) uses.push(u);
    }
  }
  return uses;
}

export function isDarkSchemeQuery(params: string): boolean {
  return /prefers-color-scheme\s*:\s*dark/i.test(params);
}

class HitCollector {
  private readonly byLabel = new Map<string, FeatureHit>();
  add(u: FeatureUse, line: number, column: number): void {
    const hit = this.byLabel.get(u.label);
    if (!hit) {
      // Built field by field: an object spread per new label cost more than the rest of add.
      const created: FeatureHit = { label: u.label, featureIds: u.featureIds, line, column, occurrences: 1 };
      if (u.unknownProperty) created.unknownProperty = true;
      this.byLabel.set(u.label, created);
      return;
    }
    hit.occurrences++;
    if (line > 0 && (hit.line === 0 || line < hit.line || (line === hit.line && column < hit.column))) {
      hit.line = line;
      hit.column = column;
    }
  }
  result(): FeatureHit[] {
    return [...this.byLabel.values()].sort((a, b) => a.line - b.line || a.column - b.column || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  }
}

function sheetPosition(sheet: EmailStyleSheet, node: { source?: { start?: { line: number; column: number } } }): [number, number] {
  return cssNodePosition(sheet.line, sheet.column, node);
}

function imageFormat(src: string): string | undefined {
  const trimmed = src.trim().toLowerCase();
  if (trimmed.startsWith('data:')) {
    const subtype = /^data:image\/([a-z0-9.+-]+)/.exec(trimmed)?.[1];
    return subtype ? IMAGE_FORMAT_FEATURES[subtype] : undefined;
  }
  const path = trimmed.split(/[?#]/)[0];
  const extension = /\.([a-z0-9]+)$/.exec(path)?.[1];
  return extension ? IMAGE_FORMAT_FEATURES[extension] : undefined;
}

/** Elements whose tracked feature depends on attributes rather than the tag alone. */
function elementUses(element: HtmlElement): FeatureUse[] {
  const uses: FeatureUse[] = [];
  const push = (id: string | undefined): void => {
    const u = id ? single(id) : undefined;
    if (u && !uses.includes(u)) uses.push(u);
  };
  const tag = element.tagName;
  // Elements the parser implied (a fragment's html/head/body) are not in the email.
  if (!element.sourceCodeLocation) return uses;
  if (element.namespaceURI === 'http://www.w3.org/1999/xhtml' || tag === 'svg') push(ELEMENT_FEATURES[tag]);
  if (tag === 'link' && /(^|\s)stylesheet(\s|$)/i.test(getAttribute(element, 'rel') ?? '')) push(MARKUP_FEATURES.linkStylesheet);
  if (tag === 'input') push(INPUT_TYPE_FEATURES[(getAttribute(element, 'type') ?? 'text').toLowerCase()]);
  if (tag === 'button') push(BUTTON_TYPE_FEATURES[(getAttribute(element, 'type') ?? 'submit').toLowerCase()]);
  if (tag === 'a') {
    const href = (getAttribute(element, 'href') ?? '').trim().toLowerCase();
    if (href.length > 1 && href.startsWith('#')) push(MARKUP_FEATURES.anchorLinks);
    if (href.startsWith('mailto:')) push(MARKUP_FEATURES.mailtoLinks);
  }
  if (tag === 'meta' && /^(color-scheme|supported-color-schemes)$/i.test(getAttribute(element, 'name') ?? '')) push(MARKUP_FEATURES.metaColorScheme);
  if (tag === 'img') {
    const src = getAttribute(element, 'src') ?? '';
    if (src.trim().toLowerCase().startsWith('data:')) push(BASE64_IMAGE_FEATURE);
    push(imageFormat(src));
  }
  for (const attr of element.attrs) if (!attr.prefix) push(ATTRIBUTE_FEATURES[attr.name]);
  return uses;
}

/** Walks the parsed email once and records every tracked feature it uses, with positions. */
export function collectFeatures(parsed: ParsedEmail, selectors: SelectorCache): CollectedFeatures {
  const hits = new HitCollector();
  const declarations = new DeclarationFeatureReader();
  const inlineDeclarationUses = new Map<CssDeclaration, FeatureUse[]>();
  const cssNodeUses = new Map<ChildNode, FeatureUse[]>();
  const elementUseMap = new Map<HtmlElement, FeatureUse[]>();
  const darkSchemeBlocks: AtRule[] = [];
  let hasColorSchemeMeta = false;

  for (const element of parsed.elements) {
    const uses = elementUses(element);
    if (uses.length > 0) {
      elementUseMap.set(element, uses);
      const position = positionOf(element);
      for (const u of uses) hits.add(u, position?.line ?? 0, position?.column ?? 0);
      if (element.tagName === 'meta' && uses.some((u) => u.featureIds.includes(MARKUP_FEATURES.metaColorScheme))) hasColorSchemeMeta = true;
    }
    const inline = parsed.inlineStyles.get(element);
    if (!inline) continue;
    for (const declaration of inline.declarations) {
      let declarationUses = inlineDeclarationUses.get(declaration);
      if (!declarationUses) {
        declarationUses = declarations.read(declaration.property, declaration.value, declaration.important);
        inlineDeclarationUses.set(declaration, declarationUses);
      }
      for (const u of declarationUses) hits.add(u, inline.line, inline.column);
    }
  }

  for (const sheet of parsed.styleSheets) {
    sheet.root.walk((node) => {
      let uses: FeatureUse[] = [];
      if (node.type === 'decl') {
        const d = node as Declaration;
        uses = declarations.read(d.prop.startsWith('--') ? d.prop : d.prop.toLowerCase(), d.value, d.important === true);
        if (d.prop.toLowerCase() === 'color-scheme' && d.parent?.type === 'rule' && /:root|html/.test((d.parent as Rule).selector)) hasColorSchemeMeta = true;
      } else if (node.type === 'rule') {
        const rule = node as Rule;
        uses = selectorUses(rule.selector, selectors);
        if (rule.parent?.type === 'rule') uses = [...uses, single(MISC_CSS_FEATURES.nesting)].filter((u): u is FeatureUse => u !== undefined);
      } else if (node.type === 'atrule') {
        const atRule = node as AtRule;
        uses = atRuleUses(atRule);
        if (atRule.name.toLowerCase() === 'media' && isDarkSchemeQuery(atRule.params)) darkSchemeBlocks.push(atRule);
      } else if (node.type === 'comment') {
        const u = single(MISC_CSS_FEATURES.comments);
        uses = u ? [u] : [];
      }
      if (uses.length === 0) return;
      cssNodeUses.set(node, uses);
      const [line, column] = sheetPosition(sheet, node);
      for (const u of uses) hits.add(u, line, column);
    });
  }

  const firstComment = parsed.comments.find((c) => c.sourceCodeLocation);
  const comments = single(MARKUP_FEATURES.comments);
  if (firstComment && comments) for (const c of parsed.comments) hits.add(comments, c.sourceCodeLocation?.startLine ?? 0, c.sourceCodeLocation?.startCol ?? 0);
  const doctype = single(MARKUP_FEATURES.doctype);
  if (parsed.doctype && doctype && parsed.doctype.name.toLowerCase() === 'html' && !parsed.doctype.publicId) {
    hits.add(doctype, parsed.doctype.sourceCodeLocation?.startLine ?? 1, parsed.doctype.sourceCodeLocation?.startCol ?? 1);
  }

  return { hits: hits.result(), inlineDeclarationUses, cssNodeUses, darkSchemeBlocks, hasColorSchemeMeta, elementUses: elementUseMap };
}
