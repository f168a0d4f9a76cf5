/**
 * The reports' static cascade, built on the engine's: its `<style>` matches (`computeStyleCascade`),
 * its parsed `style` attributes, plus the rules of `@media` blocks that apply to a first render and
 * presentational attributes (`bgcolor`, `<font size>`, `hidden`). Only the properties the reports ask
 * about are cascaded, and every result is memoised per element, so asking about every text stays linear.
 */
import type { Rule } from 'postcss';
import { MatchedRule, SelectorCache, StyleCascade, matchRules } from '../../analysis/style-cascade';
import { compareSpecificity, splitSelectorList } from '../../parse/css-selector';
import type { CssDeclaration } from '../../parse/css-syntax';
import { HtmlElement, getAttribute } from '../../parse/dom';
import { isImageValue, parseCssColor, splitCssValue } from './color-utils';
import { perElement, type ReportDocument } from './report-document';
import type { ReportDeclaration, SheetRule, SheetRules } from './sheet-rules';

const FONT_SIZE_KEYWORDS: Record<string, number> = {
  'xx-small': 9,
  'x-small': 10,
  small: 13,
  medium: 16,
  large: 18,
  'x-large': 24,
  'xx-large': 32,
  'xxx-large': 48,
};
export const FONT_TAG_SIZES: Record<string, number> = { '1': 10, '2': 13, '3': 16, '4': 18, '5': 24, '6': 32, '7': 48 };
const HEADING_EM: Record<string, number> = { h1: 2, h2: 1.5, h3: 1.17, h4: 1, h5: 0.83, h6: 0.67 };
const BOLD_TAGS = new Set(['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const INVISIBLE_TAGS = new Set(['head', 'script', 'style', 'template']);

/** The properties the reports read; everything else is skipped while cascading. */
const CASCADED = new Set([
  'background',
  'background-color',
  'background-image',
  'font',
  'font-size',
  'font-weight',
  'display',
  'visibility',
  'opacity',
  'overflow',
  'max-height',
  'height',
  'width',
  'max-width',
  'color',
]);

/** Cascaded values of the properties the reports read, lower-cased (a fixed shape: one per element). */
export class DeclaredStyle {
  'background-color': string | undefined = undefined;
  'background-image': string | undefined = undefined;
  color: string | undefined = undefined;
  'font-size': string | undefined = undefined;
  'font-weight': string | undefined = undefined;
  display: string | undefined = undefined;
  visibility: string | undefined = undefined;
  opacity: string | undefined = undefined;
  overflow: string | undefined = undefined;
  'max-height': string | undefined = undefined;
  'max-width': string | undefined = undefined;
  height: string | undefined = undefined;
  width: string | undefined = undefined;
}

export type CascadedProperty = keyof DeclaredStyle;

/** Whether rules under this media condition apply to the email as first rendered on a desktop. */
export function mediaApplies(media: string | null, darkMedia: boolean): boolean {
  if (media === null) return true;
  if (media.includes('prefers-color-scheme')) return darkMedia && media.includes('dark') && !media.includes('not ');
  if (media.includes('print')) return false;
  // Width and other feature queries describe other viewports; a bare media type applies.
  return !media.includes('(');
}

/** Rules inside `@media (prefers-color-scheme: dark)`: only clients that honor the email's dark styles apply them. */
export function isDarkMedia(media: string | null): boolean {
  return media !== null && mediaApplies(media, true) && !mediaApplies(media, false);
}

/** Parses a CSS length to px, relative to `basePx` for em and %. NaN when it is not a length. */
export function lengthToPx(value: string, basePx = 16): number {
  const text = value.trim().toLowerCase();
  if (text === '0') return 0;
  let end = 0;
  while (end < text.length && ((text[end] >= '0' && text[end] <= '9') || text[end] === '.' || (end === 0 && (text[end] === '-' || text[end] === '+')))) end++;
  const amount = Number.parseFloat(text.slice(0, end));
  if (!Number.isFinite(amount)) return Number.NaN;
  switch (text.slice(end).trim()) {
    case 'px':
    case '':
      return amount;
    case 'pt':
      return (amount * 4) / 3;
    case 'em':
      return amount * basePx;
    case 'rem':
      return amount * 16;
    case '%':
      return (amount * basePx) / 100;
    case 'pc':
      return amount * 16;
    case 'in':
      return amount * 96;
    case 'cm':
      return (amount * 96) / 2.54;
    case 'mm':
      return (amount * 96) / 25.4;
    default:
      return Number.NaN;
  }
}

/** Expands the shorthands that carry color or size into their longhands; skips properties no report reads. */
export function applyDeclaration(target: DeclaredStyle, property: string, value: string): void {
  if (!CASCADED.has(property)) return;
  if (property === 'background') {
    let color = 'transparent';
    let image = 'none';
    for (const token of splitCssValue(value)) {
      if (isImageValue(token)) image = token;
      else if (parseCssColor(token)) color = token;
    }
    target['background-color'] = color;
    target['background-image'] = image;
    return;
  }
  if (property === 'font') {
    const tokens = splitCssValue(value);
    for (let i = 0; i < tokens.length; i++) {
      const size = tokens[i].split('/')[0];
      if (!Number.isNaN(lengthToPx(size)) || FONT_SIZE_KEYWORDS[size] !== undefined) {
        target['font-size'] = size;
        if (tokens.slice(0, i).some((token) => token === 'bold' || Number(token) >= 600)) target['font-weight'] = 'bold';
        break;
      }
    }
    return;
  }
  target[property as CascadedProperty] = value;
}

/** One longhand into its field (named stores: a keyed store on a class instance is slow to optimize). */
function assign(target: DeclaredStyle, property: CascadedProperty, value: string): void {
  switch (property) {
    case 'background-color':
      target['background-color'] = value;
      break;
    case 'background-image':
      target['background-image'] = value;
      break;
    case 'color':
      target.color = value;
      break;
    case 'font-size':
      target['font-size'] = value;
      break;
    case 'font-weight':
      target['font-weight'] = value;
      break;
    case 'display':
      target.display = value;
      break;
    case 'visibility':
      target.visibility = value;
      break;
    case 'opacity':
      target.opacity = value;
      break;
    case 'overflow':
      target.overflow = value;
      break;
    case 'max-height':
      target['max-height'] = value;
      break;
    case 'max-width':
      target['max-width'] = value;
      break;
    case 'height':
      target.height = value;
      break;
    case 'width':
      target.width = value;
      break;
  }
}

/** Presentational attributes, which the cascade treats as the lowest-priority declarations. */
const HINT_ATTRIBUTES = new Set(['bgcolor', 'background', 'color', 'size', 'text']);

/** Whether an element carries a presentational attribute the cascade reads. */
function hasHints(element: HtmlElement): boolean {
  for (const attr of element.attrs) if (HINT_ATTRIBUTES.has(attr.name) || attr.name === 'hidden') return true;
  return false;
}

function applyHints(element: HtmlElement, target: DeclaredStyle): void {
  for (const attr of element.attrs) {
    if (!HINT_ATTRIBUTES.has(attr.name) || attr.prefix) continue;
    const value = attr.value.trim().toLowerCase();
    if (value === '') continue;
    const color = colorHintProperty(element.tagName, attr.name);
    if (color === 'background-color') target['background-color'] = value;
    else if (color === 'background-image') target['background-image'] = `url(${value})`;
    else if (color === 'color') target.color = value;
    else if (attr.name === 'size' && element.tagName === 'font' && FONT_TAG_SIZES[value]) target['font-size'] = `${FONT_TAG_SIZES[value]}px`;
  }
  if (getAttribute(element, 'hidden') !== undefined) target.display = 'none';
}

const EMPTY = Object.freeze(new DeclaredStyle());
const NO_RULES: readonly SheetRule[] = [];
const NO_DECLARATIONS: readonly ReportDeclaration[] = [];

interface CascadedDeclarations {
  /** Longhands only, in source order. */
  normal: Array<[property: CascadedProperty, value: string]>;
  important: Array<[property: CascadedProperty, value: string]>;
}

type StyleFlag = 'hides' | 'paintsImage' | 'sizes' | 'paints';
const FLAG_BITS: Readonly<Record<StyleFlag, number>> = { hides: 1, paintsImage: 2, sizes: 4, paints: 8 };
/** The properties the color cascade reads (dark contrast, hidden text, contrast). */
export const COLOR_PROPERTIES: ReadonlySet<string> = new Set(['color', 'background', 'background-color', 'background-image']);

/**
 * The color property a presentational attribute stands for, or undefined: `bgcolor`, `background`
 * (an image), `color` on `<font>`, `text` on `<body>`.
 */
export function colorHintProperty(tagName: string, attribute: string): string | undefined {
  if (attribute === 'bgcolor') return 'background-color';
  if (attribute === 'background') return 'background-image';
  if (attribute === 'color') return tagName === 'font' ? 'color' : undefined;
  if (attribute === 'text') return tagName === 'body' ? 'color' : undefined;
  return undefined;
}

const HIDING_PROPERTIES = new Set(['display', 'visibility', 'opacity', 'overflow']);
const IMAGE_PROPERTIES = new Set(['background', 'background-image']);

/**
 * The flags a declaration list sets, read from its property names (and background values) without
 * building its cascaded form: the same answers as cascadedOf's flags.
 */
function declarationFlagBits(declarations: readonly ReportDeclaration[]): number {
  let bits = 0;
  for (const d of declarations) {
    const property = d.property;
    if (HIDING_PROPERTIES.has(property)) bits |= FLAG_BITS.hides;
    else if (property === 'font-size' || property === 'font') bits |= FLAG_BITS.sizes;
    else if (COLOR_PROPERTIES.has(property)) {
      bits |= FLAG_BITS.paints;
      if (IMAGE_PROPERTIES.has(property) && isImageValue(d.value)) bits |= FLAG_BITS.paintsImage;
    }
  }
  return bits;
}

const LINK_STATE_TEST = /:(?:any-)?link(?![\w-])/i;
const LINK_STATES = /:(?:any-)?link(?![\w-])/gi;
const VISITED = /:visited(?![\w-])/i;

/**
 * The selectors of a list that name a link state, as an unvisited link in a fresh profile matches them
 * (what a browser, and axe in it, paints): `:link` and `:any-link` become `[href]` (the same specificity),
 * selectors with `:visited` are left out (they never match). Null when no selector of the list names a
 * link state. The shared cascade keeps such selectors unmatched, as an inliner keeps them in `<style>`.
 */
export function linkStateSelector(selectorText: string): string | null {
  if (!LINK_STATE_TEST.test(selectorText)) return null;
  const parts = splitSelectorList(selectorText)
    .filter((part) => LINK_STATE_TEST.test(part) && !VISITED.test(part))
    .map((part) => part.replace(LINK_STATES, '[href]'));
  return parts.length > 0 ? parts.join(', ') : null;
}

/** A rule's selector with its link-state selectors added in their matchable form. */
function withLinkStates(rule: Rule): string {
  const linkStates = linkStateSelector(rule.selector);
  return linkStates === null ? rule.selector : `${rule.selector}, ${linkStates}`;
}

export class ReportStyles {
  private readonly declaredCache: Array<DeclaredStyle | undefined>;
  private readonly rulesCache: Array<readonly SheetRule[] | undefined>;
  private readonly inlineCache = new Map<readonly CssDeclaration[], ReportDeclaration[]>();
  /** Per declaration list: only the cascaded properties, values lower-cased once. */
  private readonly cascadedCache = new Map<readonly ReportDeclaration[], CascadedDeclarations>();
  private readonly hiddenCache: Array<string | null | undefined>;
  private readonly fontSizeCache: Array<number | undefined>;
  private readonly elements: readonly HtmlElement[];
  private staticMediaMatches: Map<HtmlElement, MatchedRule[]> | undefined;
  private darkMediaMatches: Map<HtmlElement, MatchedRule[]> | undefined;
  private linkStateMatches: Map<HtmlElement, MatchedRule[]> | undefined;

  constructor(
    readonly doc: ReportDocument,
    readonly cascade: StyleCascade,
    readonly sheet: SheetRules,
    readonly selectors: SelectorCache,
  ) {
    this.elements = doc.index.elements;
    const count = this.elements.length;
    this.declaredCache = perElement(count);
    this.rulesCache = perElement(count);
    this.hiddenCache = perElement(count);
    this.fontSizeCache = perElement(count);
  }

  /** The element's own `style` declarations (the engine's parse), normalized. */
  inlineDeclarations(element: HtmlElement): readonly ReportDeclaration[] {
    const declarations = this.doc.parsed.inlineStyles.get(element)?.declarations;
    return declarations ? this.normalized(declarations) : NO_DECLARATIONS;
  }

  private normalized(declarations: readonly CssDeclaration[]): readonly ReportDeclaration[] {
    let normalized = this.inlineCache.get(declarations);
    if (!normalized) {
      normalized = declarations.map((d) => ({ property: d.property, value: d.value.trim(), important: d.important }));
      this.inlineCache.set(declarations, normalized);
    }
    return normalized;
  }

  /** Matches the rules inside `@media` / `@supports` blocks (the engine's cascade matches top-level rules only). */
  private matchMedia(select: (rule: SheetRule) => boolean): Map<HtmlElement, MatchedRule[]> {
    const rules = this.sheet.rules.filter((rule) => rule.conditional && select(rule)).map((rule) => rule.rule);
    if (rules.length === 0) return new Map();
    return matchRules(this.doc.parsed, this.selectors, rules, (rule) => this.sheet.byRule.get(rule)?.order ?? 0, this.doc.parsed.matchContext, withLinkStates);
  }

  /** Top-level rules' link-state selectors (`a:link`), which the engine's cascade leaves unmatched. */
  private linkStates(): Map<HtmlElement, MatchedRule[]> {
    if (this.linkStateMatches) return this.linkStateMatches;
    const selectorOf = new Map<Rule, string>();
    for (const rule of this.sheet.rules) {
      if (!rule.topLevel || rule.ancestors.length > 0) continue;
      const selector = linkStateSelector(rule.selectorText);
      if (selector !== null) selectorOf.set(rule.rule, selector);
    }
    this.linkStateMatches =
      selectorOf.size === 0
        ? new Map()
        : matchRules(
            this.doc.parsed,
            this.selectors,
            selectorOf.keys(),
            (rule) => this.sheet.byRule.get(rule)?.order ?? 0,
            this.doc.parsed.matchContext,
            (rule) => selectorOf.get(rule) ?? '',
          );
    return this.linkStateMatches;
  }

  private staticMedia(): Map<HtmlElement, MatchedRule[]> {
    this.staticMediaMatches ??= this.matchMedia((rule) => mediaApplies(rule.media, false));
    return this.staticMediaMatches;
  }

  private darkMedia(): Map<HtmlElement, MatchedRule[]> {
    this.darkMediaMatches ??= this.matchMedia((rule) => isDarkMedia(rule.media));
    return this.darkMediaMatches;
  }

  /** Top-level, static-media and optionally dark and extra matches of the element, in cascade order. */
  private merged(element: HtmlElement, darkRules: boolean, extra?: readonly MatchedRule[]): readonly SheetRule[] {
    const top = this.cascade.matches.get(element);
    const media = this.staticMedia().get(element);
    const dark = darkRules ? this.darkMedia().get(element) : undefined;
    const links = this.linkStates().get(element);
    if (!media && !dark && !extra && !links) {
      if (!top) return NO_RULES;
      const rules: SheetRule[] = [];
      for (const match of top) {
        const rule = this.sheet.byRule.get(match.rule);
        if (rule) rules.push(rule);
      }
      return rules;
    }
    const lists = [media, dark, extra, links].filter((list): list is MatchedRule[] => list !== undefined && list.length > 0);
    const entries: Array<{ match: MatchedRule; rule: SheetRule }> = [];
    for (const list of [top ?? [], ...lists]) {
      for (const match of list) {
        const rule = this.sheet.byRule.get(match.rule);
        if (rule) entries.push({ match, rule });
      }
    }
    entries.sort((a, b) => compareSpecificity(a.match.specificity, b.match.specificity) || a.rule.order - b.rule.order);
    return entries.map((entry) => entry.rule);
  }

  /** `<style>` rules applying to the element as first rendered, in cascade order (specificity, then source order). */
  matchedRules(element: HtmlElement): readonly SheetRule[] {
    return this.matchedRulesAt(this.doc.index.of(element));
  }

  private matchedRulesAt(index: number): readonly SheetRule[] {
    let rules = this.rulesCache[index];
    if (!rules) {
      rules = this.merged(this.elements[index], false);
      this.rulesCache[index] = rules;
    }
    return rules;
  }

  private readonly customCache = new Map<string, string | null>();

  /**
   * The value of a custom property (name lower-cased) at the element: its own cascaded declaration, else
   * its nearest ancestor's (custom properties inherit). `darkRules` adds the email's dark rules.
   */
  customProperty(index: number, name: string, darkRules: boolean): string | undefined {
    const key = `${index}|${darkRules ? 1 : 0}|${name}`;
    const known = this.customCache.get(key);
    if (known !== undefined) return known ?? undefined;
    let found: string | null = null;
    const parents = this.doc.index.parent;
    for (let current = index; current !== -1 && found === null; current = parents[current]) found = this.ownCustomProperty(current, name, darkRules);
    this.customCache.set(key, found);
    return found ?? undefined;
  }

  private ownCustomProperty(index: number, name: string, darkRules: boolean): string | null {
    const element = this.elements[index];
    const found: { normal: string | null; important: string | null } = { normal: null, important: null };
    const lists: Array<readonly ReportDeclaration[]> = this.matchedRulesFor(element, darkRules).map((rule) => rule.declarations);
    lists.push(this.inlineDeclarations(element));
    for (const list of lists) {
      for (const d of list) {
        if (d.property.length !== name.length || d.property.toLowerCase() !== name) continue;
        if (d.important) found.important = d.value;
        else found.normal = d.value;
      }
    }
    return found.important ?? found.normal;
  }

  /** Whether some `prefers-color-scheme: dark` rule matches the element. */
  hasDarkMatch(element: HtmlElement): boolean {
    return this.darkMedia().has(element);
  }

  /**
   * The element's rules with the email's `prefers-color-scheme: dark` rules (`darkRules`) and a variant's
   * own extra matches merged in, in cascade order.
   */
  matchedRulesFor(element: HtmlElement, darkRules: boolean, extra?: readonly MatchedRule[]): readonly SheetRule[] {
    if (!extra && (!darkRules || !this.darkMedia().has(element))) return this.matchedRules(element);
    return this.merged(element, darkRules, extra);
  }

  private cascadedOf(declarations: readonly ReportDeclaration[]): CascadedDeclarations {
    let cascaded = this.cascadedCache.get(declarations);
    if (!cascaded) {
      cascaded = { normal: [], important: [] };
      for (const d of declarations) {
        if (!CASCADED.has(d.property)) continue;
        // Shorthands are expanded here, once per distinct declaration list, not once per element.
        const target = d.important ? cascaded.important : cascaded.normal;
        if (d.property === 'background' || d.property === 'font') {
          const longhands = new DeclaredStyle();
          applyDeclaration(longhands, d.property, d.value.toLowerCase());
          for (const key of Object.keys(longhands) as CascadedProperty[]) {
            if (longhands[key] !== undefined) target.push([key, longhands[key] as string]);
          }
        } else target.push([d.property as CascadedProperty, d.value.toLowerCase()]);
      }
      this.cascadedCache.set(declarations, cascaded);
    }
    return cascaded;
  }

  /**
   * Whether any source of the element's style declares `flag`'s properties: a cheap test that spares
   * building its whole declared style (most elements hide nothing and paint no image).
   */
  private declares(index: number, flag: StyleFlag): boolean {
    return (this.styleFlags()[index] & FLAG_BITS[flag]) !== 0;
  }

  private styleFlags(): Uint8Array {
    this.flagMarks ??= this.markStyleFlags();
    return this.flagMarks;
  }

  /** Per element, the FLAG_BITS its own style sources declare; built on first use. */
  private flagMarks: Uint8Array | undefined;
  /** The FLAG_BITS of all elements together. */
  private anyFlags = 0;

  /**
   * The flags of every element at once, found from the style sources (the inline styles, the matched
   * rules, the attributes) rather than asked element by element: most elements hide nothing, paint no
   * image and size no text, and then need no declared style at all. One pass over the sources serves
   * the three questions (each report asks at least two of them).
   */
  private markStyleFlags(): Uint8Array {
    const { index, parsed } = this.doc;
    const marks = new Uint8Array(index.elements.length);
    // Identical style attributes share one parsed declaration list (the parse caches them by text).
    const inlineBits = new Map<readonly ReportDeclaration[], number>();
    parsed.inlineStyles.forEach((style, element) => {
      let bits = inlineBits.get(style.declarations);
      if (bits === undefined) {
        bits = declarationFlagBits(style.declarations);
        inlineBits.set(style.declarations, bits);
      }
      if (bits !== 0) marks[index.of(element)] |= bits;
    });
    // Bits per postcss rule, so each match costs one lookup.
    const bitsByRule = new Map<object, number>();
    for (const rule of this.sheet.rules) bitsByRule.set(rule.rule, declarationFlagBits(rule.declarations));
    const markMatched = (list: readonly MatchedRule[], element: HtmlElement): void => {
      let bits = 0;
      for (const match of list) bits |= bitsByRule.get(match.rule) ?? 0;
      if (bits !== 0) marks[index.of(element)] |= bits;
    };
    this.cascade.matches.forEach(markMatched);
    this.staticMedia().forEach(markMatched);
    this.linkStates().forEach(markMatched);
    // Presentational attributes: `hidden`, `background`, `<font size>` (parse5 lower-cases attribute names).
    const elements = index.elements;
    for (let i = 0; i < elements.length; i++) {
      for (const attr of elements[i].attrs) {
        if (attr.prefix) continue;
        const tagName = elements[i].tagName;
        if (attr.name === 'hidden') marks[i] |= FLAG_BITS.hides;
        else if (attr.name === 'size' && tagName === 'font') marks[i] |= FLAG_BITS.sizes;
        else if (colorHintProperty(tagName, attr.name) !== undefined)
          marks[i] |= attr.name === 'background' ? FLAG_BITS.paintsImage | FLAG_BITS.paints : FLAG_BITS.paints;
      }
    }
    for (let i = 0; i < marks.length; i++) this.anyFlags |= marks[i];
    return marks;
  }

  private colorMarks: Uint8Array | undefined;

  /**
   * Whether any source of the element's own style (hint attributes, `style`, matched rules including
   * `prefers-color-scheme: dark` ones) may declare a color or background. False means the color cascade
   * finds no entry for it in any variant, so it paints exactly what its parent paints.
   */
  mayDeclareColor(index: number): boolean {
    return (this.colorMarks ??= this.markColorSources())[index] === 1;
  }

  private markColorSources(): Uint8Array {
    const flags = this.styleFlags();
    const marks = new Uint8Array(flags.length);
    for (let i = 0; i < flags.length; i++) if ((flags[i] & FLAG_BITS.paints) !== 0) marks[i] = 1;
    const { index } = this.doc;
    this.darkMedia().forEach((list, element) => {
      for (const match of list) {
        const rule = this.sheet.byRule.get(match.rule);
        if (rule && (declarationFlagBits(rule.declarations) & FLAG_BITS.paints) !== 0) {
          marks[index.of(element)] = 1;
          return;
        }
      }
    });
    return marks;
  }

  /** Whether some element's own style can paint a background image (a `background` attribute or an image in a background declaration). */
  mayPaintImages(): boolean {
    this.styleFlags();
    return (this.anyFlags & FLAG_BITS.paintsImage) !== 0;
  }

  /** The background image the element's own style paints (cascaded, lower-cased), if any. */
  backgroundImage(element: HtmlElement): string | undefined {
    const index = this.doc.index.of(element);
    return this.declares(index, 'paintsImage') ? this.declared(index)['background-image'] : undefined;
  }

  private declared(index: number): DeclaredStyle {
    let values = this.declaredCache[index];
    if (values) return values;
    const element = this.elements[index];
    const rules = this.matchedRulesAt(index);
    const inline = this.inlineDeclarations(element);
    if (rules.length === 0 && inline.length === 0 && !hasHints(element)) {
      this.declaredCache[index] = EMPTY;
      return EMPTY;
    }
    values = new DeclaredStyle();
    applyHints(element, values);
    const ruleLists = rules.map((rule) => this.cascadedOf(rule.declarations));
    const inlineList = this.cascadedOf(inline);
    // Normal declarations by specificity and source order, inline last; then !important ones the same way.
    for (const list of ruleLists) for (const [property, value] of list.normal) assign(values, property, value);
    for (const [property, value] of inlineList.normal) assign(values, property, value);
    for (const list of ruleLists) for (const [property, value] of list.important) assign(values, property, value);
    for (const [property, value] of inlineList.important) assign(values, property, value);
    this.declaredCache[index] = values;
    return values;
  }

  /** Cascaded (not inherited) value of a property on the element, lower-cased. */
  get(element: HtmlElement, property: CascadedProperty): string | undefined {
    return this.declared(this.doc.index.of(element))[property];
  }

  /** Why the element (or an ancestor) is invisible, or null. */
  hiddenReason(element: HtmlElement): string | null {
    return this.hiddenAt(this.doc.index.of(element));
  }

  hiddenAt(index: number): string | null {
    return this.doc.index.resolveDown<string | null, ReportStyles>(this, this.hiddenCache, index, null, ReportStyles.computeHidden);
  }

  /** Static, not a closure per instance or per call: see resolveDown. */
  private static computeHidden(styles: ReportStyles, current: number, parentReason: string | null): string | null {
    if (parentReason !== null) return parentReason;
    const tagName = styles.elements[current].tagName;
    if (INVISIBLE_TAGS.has(tagName)) return `<${tagName}>`;
    if ((styles.styleFlags()[current] & FLAG_BITS.hides) === 0) return null;
    const values = styles.declared(current);
    const { display, visibility, opacity, overflow } = values;
    if (display === 'none') return 'display:none';
    if (visibility === 'hidden' || visibility === 'collapse') return 'visibility:hidden';
    if (opacity !== undefined && Number.parseFloat(opacity) === 0) return 'opacity:0';
    if (overflow === 'hidden') {
      const maxHeight = values['max-height'];
      const height = values.height;
      if ((maxHeight !== undefined && lengthToPx(maxHeight) === 0) || (height !== undefined && lengthToPx(height) === 0))
        return 'zero height with overflow:hidden';
    }
    return null;
  }

  fontSizePx(element: HtmlElement): number {
    return this.fontSizeAt(this.doc.index.of(element));
  }

  fontSizeAt(index: number): number {
    return this.doc.index.resolveDown(this, this.fontSizeCache, index, 16, ReportStyles.computeFontSize);
  }

  private static computeFontSize(styles: ReportStyles, current: number, parentPx: number): number {
    const declared = styles.declares(current, 'sizes') ? styles.declared(current)['font-size'] : undefined;
    if (declared !== undefined) {
      if (FONT_SIZE_KEYWORDS[declared] !== undefined) return FONT_SIZE_KEYWORDS[declared];
      if (declared === 'smaller') return parentPx * 0.83;
      if (declared === 'larger') return parentPx * 1.2;
      const px = lengthToPx(declared, parentPx);
      return !Number.isNaN(px) && px >= 0 ? px : parentPx;
    }
    const tagName = styles.elements[current].tagName;
    if (HEADING_EM[tagName] !== undefined) return parentPx * HEADING_EM[tagName];
    if (tagName === 'small') return parentPx * 0.83;
    return parentPx;
  }

  isBold(element: HtmlElement): boolean {
    return this.isBoldAt(this.doc.index.of(element));
  }

  isBoldAt(index: number): boolean {
    const parents = this.doc.index.parent;
    for (let current = index; current !== -1; current = parents[current]) {
      const weight = this.declared(current)['font-weight'];
      if (weight !== undefined && weight !== 'inherit') return weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
      if (BOLD_TAGS.has(this.elements[current].tagName)) return true;
    }
    return false;
  }
}
