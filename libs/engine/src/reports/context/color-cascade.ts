/**
 * Text and background colors per element, for the email as written (light) and for each client's
 * dark-mode variant. A variant is described by what the dark-mode pass hands over (how it recolors,
 * which declarations the client drops, which elements Outlook.com marks), never by re-parsing its HTML:
 * the color-carrying declarations of an element are collected once, in cascade order, and each variant
 * only filters and recolors them.
 */
import type { Rule } from 'postcss';
import { MatchedRule, matchRules } from '../../analysis/style-cascade';
import type { ColorRole } from '../../dark-mode/color-inversion';
import { MatchContext } from '../../parse/css-selector';
import { HtmlElement, getAttribute } from '../../parse/dom';
import { resolveLightDark, substituteVariables } from './css-functions';
import { BLACK, LINK_BLUE, WHITE, compositeOver, isLowerCaseImageValue, parseCssColor, splitCssValue, type Rgba } from './color-utils';
import { perElement, type ElementIndex } from './report-document';
import { COLOR_PROPERTIES, colorHintProperty, type ReportStyles } from './report-styles';
import type { SheetRule } from './sheet-rules';

/** Which clients drop a `<style>` rule's or an inline declaration's color (bit i: CLIENT_IDS[i]). */
export interface DropMasks {
  /** Bits of the clients that drop this declaration of the rule (its at-rules and selector included). */
  ruleDeclaration(rule: SheetRule, index: number): number;
  /** The same when the client inlines the rule (Gmail): only the declaration's own features count. */
  inlinedRuleDeclaration(rule: SheetRule, index: number): number;
  inlineDeclaration(element: HtmlElement, index: number): number;
}

export interface ColorVariant {
  /** Variants with equal keys (and equal drop bits) paint every color alike and are computed once. */
  key: string;
  /** The client's bit in DropMasks; 0 for the email as written. */
  clientBit: number;
  /** Recolors a CSS value as the client's dark mode does (shared by the clients of one mode); null keeps the email's colors. */
  recolor: Recolorer | null;
  /** Apply the email's `@media (prefers-color-scheme: dark)` rules. */
  darkRules: boolean;
  /** The client inlines top-level rules into style attributes (Gmail). */
  inlinesRules: boolean;
  /** What the client paints behind a body without a background of its own. */
  canvas: { background: string; text: string; link: string } | null;
  /** Elements the client marks as recolored (Outlook.com's data-ogsc / data-ogsb), so `[data-og…]` rules apply. */
  markers: { foreground: ReadonlySet<HtmlElement>; background: ReadonlySet<HtmlElement> } | null;
}

export interface Recolorer {
  color(value: string, role: ColorRole): string;
}

export const LIGHT_VARIANT: ColorVariant = { key: 'light', clientBit: 0, recolor: null, darkRules: false, inlinesRules: false, canvas: null, markers: null };

/** One color-carrying declaration of an element, in cascade order. */
interface ColorEntry {
  property: string;
  value: string;
  important: boolean;
  origin: 'hint' | 'rule' | 'inline';
  /** Clients that drop it (as a rule, and as an inlined top-level rule). */
  mask: number;
  inlinedMask: number;
  topLevel: boolean;
}

interface DeclaredColors {
  color: string | undefined;
  backgroundColor: string | undefined;
  backgroundImage: string | undefined;
}

export interface ResolvedBackground {
  color: Rgba;
  /** The element whose background is painted behind the text; null for the default canvas. */
  from: HtmlElement | null;
}

function roleOf(property: string): ColorRole | null {
  if (property === 'color') return 'foreground';
  if (property === 'background' || property === 'background-color') return 'background';
  return null;
}

class MarkerMatchContext extends MatchContext {
  constructor(private readonly markers: NonNullable<ColorVariant['markers']>) {
    super();
  }
  override attribute(element: HtmlElement, name: string): string | undefined {
    if (name === 'data-ogsc' && this.markers.foreground.has(element)) return '';
    if (name === 'data-ogsb' && this.markers.background.has(element)) return '';
    return super.attribute(element, name);
  }
}

const CANVAS: ResolvedBackground = { color: WHITE, from: null };
const NO_ENTRIES: ColorEntry[] = [];
const NOTHING_DECLARED: DeclaredColors = Object.freeze({ color: undefined, backgroundColor: undefined, backgroundImage: undefined });

const NO_MASKS: DropMasks = { ruleDeclaration: () => 0, inlinedRuleDeclaration: () => 0, inlineDeclaration: () => 0 };

/** Color entries per element, shared by every variant of one email. */
export class ColorCascade {
  private readonly entries: Array<ColorEntry[] | undefined>;
  /** Recolored values per recolorer and role, keyed by the entry's value string (no key building per lookup). */
  private readonly recolored = new Map<Recolorer, Record<ColorRole, Map<string, string>>>();
  private readonly darkEntries: Array<ColorEntry[] | undefined>;
  private readonly masksSeen = new Set<number>();
  private inliningChangesMasks = false;

  constructor(
    readonly styles: ReportStyles,
    private readonly masks: DropMasks = NO_MASKS,
  ) {
    const count = styles.doc.index.elements.length;
    this.entries = perElement(count);
    this.darkEntries = perElement(count);
  }

  private readonly shared = new Map<string, Array<DeclaredColors | undefined>>();

  /** Declared colors shared by the variants that recolor alike, for elements none of them drops anything of. */
  sharedDeclared(variant: ColorVariant): Array<DeclaredColors | undefined> {
    const key = `${this.recolorerId(variant.recolor)}|${variant.darkRules ? 'dark' : ''}`;
    let list = this.shared.get(key);
    if (!list) {
      list = perElement(this.styles.doc.index.elements.length);
      this.shared.set(key, list);
    }
    return list;
  }

  private readonly recolorerIds = new Map<Recolorer, number>();
  private recolorerId(recolorer: Recolorer | null): number {
    if (!recolorer) return 0;
    let id = this.recolorerIds.get(recolorer);
    if (id === undefined) {
      id = this.recolorerIds.size + 1;
      this.recolorerIds.set(recolorer, id);
    }
    return id;
  }

  recolor(recolorer: Recolorer, value: string, role: ColorRole): string {
    let byRole = this.recolored.get(recolorer);
    if (!byRole) {
      byRole = { background: new Map(), foreground: new Map() };
      this.recolored.set(recolorer, byRole);
    }
    let result = byRole[role].get(value);
    if (result === undefined) {
      result = recolorer.color(value, role);
      byRole[role].set(value, result);
    }
    return result;
  }

  /**
   * Whether inlining top-level rules (Gmail) can paint differently from keeping them in `<style>`: some
   * entry built so far drops differently when inlined, or the body's background comes from such a rule.
   */
  inliningMatters(): boolean {
    if (this.inliningChangesMasks) return true;
    const body = this.styles.doc.body;
    if (!body) return false;
    return this.entriesOf(body, false).some(
      (entry) => entry.origin === 'rule' && entry.topLevel && (entry.property === 'background' || entry.property === 'background-color'),
    );
  }

  private darkScheme: boolean | undefined;

  /**
   * Whether the email opts into a dark color scheme (`<meta name="color-scheme">` or a `color-scheme`
   * declaration naming dark), without which `light-dark()` picks its light value even in dark mode.
   */
  darkSchemeDeclared(): boolean {
    if (this.darkScheme !== undefined) return this.darkScheme;
    const { parsed } = this.styles.doc;
    const names = (value: string | undefined): boolean => value !== undefined && /\bdark\b/i.test(value) && !/\bonly\s+light\b/i.test(value);
    let declared = (parsed.elementsByTag.get('meta') ?? []).some(
      (meta) => getAttribute(meta, 'name')?.toLowerCase() === 'color-scheme' && names(getAttribute(meta, 'content')),
    );
    if (!declared) declared = this.styles.sheet.rules.some((rule) => rule.declarations.some((d) => d.property === 'color-scheme' && names(d.value)));
    if (!declared) {
      for (const style of parsed.inlineStyles.values()) {
        if (style.declarations.some((d) => d.property === 'color-scheme' && names(d.value))) {
          declared = true;
          break;
        }
      }
    }
    this.darkScheme = declared;
    return declared;
  }

  /** Every drop mask some entry built so far carries (variants differing only elsewhere paint alike). */
  get dropMasks(): ReadonlySet<number> {
    return this.masksSeen;
  }

  private build(element: HtmlElement, rules: readonly SheetRule[]): ColorEntry[] {
    const normal: ColorEntry[] = [];
    const important: ColorEntry[] = [];
    for (const attr of element.attrs) {
      // The name first: most attributes carry no color, and their values (hrefs, styles) are long.
      const property = colorHintProperty(element.tagName, attr.name);
      if (property === undefined || attr.prefix) continue;
      const value = attr.value.trim().toLowerCase();
      if (value === '') continue;
      normal.push(this.entry(property, property === 'background-image' ? `url(${value})` : value, false, 'hint', 0, 0, false));
    }
    for (const rule of rules) {
      rule.declarations.forEach((d, index) => {
        if (!COLOR_PROPERTIES.has(d.property)) return;
        const entry = this.entry(
          d.property,
          d.value.toLowerCase(),
          d.important,
          'rule',
          this.masks.ruleDeclaration(rule, index),
          this.masks.inlinedRuleDeclaration(rule, index),
          rule.topLevel,
        );
        (d.important ? important : normal).push(entry);
      });
    }
    this.styles.inlineDeclarations(element).forEach((d, index) => {
      if (!COLOR_PROPERTIES.has(d.property)) return;
      const mask = this.masks.inlineDeclaration(element, index);
      const entry = this.entry(d.property, d.value.toLowerCase(), d.important, 'inline', mask, mask, false);
      (d.important ? important : normal).push(entry);
    });
    // Rules come sorted; inline entries were pushed after them, which is their cascade place.
    if (normal.length === 0 && important.length === 0) return NO_ENTRIES;
    return important.length > 0 ? normal.concat(important) : normal;
  }

  private entry(
    property: string,
    value: string,
    important: boolean,
    origin: ColorEntry['origin'],
    mask: number,
    inlinedMask: number,
    topLevel: boolean,
  ): ColorEntry {
    this.masksSeen.add(mask);
    this.masksSeen.add(inlinedMask);
    if (topLevel && mask !== inlinedMask) this.inliningChangesMasks = true;
    return { property, value, important, origin, mask, inlinedMask, topLevel };
  }

  entriesOf(element: HtmlElement, darkRules: boolean, extra?: readonly MatchedRule[]): ColorEntry[] {
    return this.entriesAt(this.styles.doc.index.of(element), darkRules, extra);
  }

  entriesAt(index: number, darkRules: boolean, extra?: readonly MatchedRule[]): ColorEntry[] {
    const element = this.styles.doc.index.elements[index];
    if (extra) return this.build(element, this.styles.matchedRulesFor(element, darkRules, extra));
    // Most elements match no dark rule: their dark entries are their light ones.
    if (darkRules && !this.styles.hasDarkMatch(element)) return this.entriesAt(index, false);
    const cache = darkRules ? this.darkEntries : this.entries;
    let list = cache[index];
    if (!list) {
      list = this.build(element, this.styles.matchedRulesFor(element, darkRules));
      cache[index] = list;
    }
    return list;
  }

  private colorChain: { relevant: Uint8Array; parents: Int32Array } | undefined;

  /**
   * The elements whose colors can differ from their parent's (a color source of their own, the body's
   * canvas, a link's default blue) and, for every element, the nearest such ancestor. Most elements set
   * no color: variants resolve colors along this shorter chain and skip them. Not for variants with
   * Outlook.com's marker rules, whose extra matches can color any element.
   */
  colorParents(): { relevant: Uint8Array; parents: Int32Array } {
    if (this.colorChain) return this.colorChain;
    const { doc } = this.styles;
    const { elements, parent } = doc.index;
    const relevant = new Uint8Array(elements.length);
    const parents = new Int32Array(elements.length);
    for (let i = 0; i < elements.length; i++) {
      const element = elements[i];
      if (this.styles.mayDeclareColor(i) || element === doc.body || (element.tagName === 'a' && getAttribute(element, 'href') !== undefined)) relevant[i] = 1;
      // Parents are numbered before their children.
      const up = parent[i];
      parents[i] = up === -1 ? -1 : relevant[up] === 1 ? up : parents[up];
    }
    this.colorChain = { relevant, parents };
    return this.colorChain;
  }

  /** Matches the rules that mention Outlook.com's markers against a variant's marked elements. */
  markerMatches(markers: NonNullable<ColorVariant['markers']>): Map<HtmlElement, MatchedRule[]> {
    const { doc, sheet, selectors } = this.styles;
    const rules: Rule[] = sheet.rules.filter((rule) => !rule.nested && rule.media === null && /data-ogs[cb]/i.test(rule.selectorText)).map((rule) => rule.rule);
    if (rules.length === 0) return new Map();
    return matchRules(doc.parsed, selectors, rules, (rule) => sheet.byRule.get(rule)?.order ?? 0, new MarkerMatchContext(markers));
  }
}

/** Colors of one variant, memoised per element. */
export class VariantColors {
  private readonly declaredCache: Array<DeclaredColors | undefined>;
  private readonly textCache: Array<Rgba | undefined>;
  /** False stands for "unknown background" (null), since undefined means "not computed". */
  private readonly backgroundCache: Array<ResolvedBackground | false | undefined>;
  private readonly extra: Map<HtmlElement, MatchedRule[]> | null;
  private readonly body: HtmlElement | null;
  private readonly index: ElementIndex;
  private readonly sharedList: Array<DeclaredColors | undefined>;
  /** Which elements resolve colors, and each one's parent among them (see ColorCascade.colorParents). */
  private readonly relevant: Uint8Array | null;
  private readonly parents: Int32Array;

  constructor(
    private readonly cascade: ColorCascade,
    readonly variant: ColorVariant,
  ) {
    this.extra = variant.markers ? cascade.markerMatches(variant.markers) : null;
    this.body = cascade.styles.doc.body;
    this.index = cascade.styles.doc.index;
    this.sharedList = cascade.sharedDeclared(variant);
    const count = this.index.elements.length;
    if (this.extra) {
      this.relevant = null;
      this.parents = this.index.parent;
    } else {
      ({ relevant: this.relevant, parents: this.parents } = cascade.colorParents());
    }
    this.declaredCache = perElement(count);
    this.textCache = perElement(count);
    this.backgroundCache = perElement(count);
  }

  private dropped(entry: ColorEntry): boolean {
    const bit = this.variant.clientBit;
    if (bit === 0) return false;
    const mask = this.variant.inlinesRules && entry.topLevel ? entry.inlinedMask : entry.mask;
    return (mask & bit) !== 0;
  }

  /** A body without a background of its own gets the client's dark canvas, as the dark-mode pass paints it. */
  private needsCanvas(element: HtmlElement, entries: readonly ColorEntry[]): boolean {
    if (!this.variant.canvas || element !== this.body || getAttribute(element, 'bgcolor')) return false;
    for (const entry of entries) {
      const ownStyle = entry.origin === 'inline' || (this.variant.inlinesRules && entry.origin === 'rule' && entry.topLevel);
      if (ownStyle && roleOf(entry.property) === 'background' && !this.dropped(entry)) return false;
    }
    return true;
  }

  private declared(index: number): DeclaredColors {
    let declared = this.declaredCache[index];
    if (declared) return declared;
    const element = this.index.elements[index];
    const extra = this.extra?.get(element);
    const entries = this.cascade.entriesAt(index, this.variant.darkRules, extra);
    if (entries.length === 0 && element !== this.body) {
      this.declaredCache[index] = NOTHING_DECLARED;
      return NOTHING_DECLARED;
    }
    // Variants of one mode differ only where a client drops a declaration: elsewhere they share the result.
    const shareable = !extra && element !== this.body && !entries.some((entry) => this.dropped(entry));
    const shared = shareable ? this.sharedList : null;
    if (shared?.[index]) {
      this.declaredCache[index] = shared[index];
      return shared[index]!;
    }
    declared = this.compute(element, index, entries);
    if (shared) shared[index] = declared;
    this.declaredCache[index] = declared;
    return declared;
  }

  /**
   * The entry's value with `var()` and `light-dark()` resolved as this variant computes them (a client
   * that lacks either drops the whole declaration through its mask, so the previous one wins there).
   * Null when a variable resolves to nothing: the declaration is invalid at computed-value time.
   */
  private resolveFunctions(value: string, index: number): string | null {
    const darkRules = this.variant.darkRules;
    const styles = this.cascade.styles;
    const substituted = substituteVariables(value, (name) => styles.customProperty(index, name, darkRules)?.toLowerCase());
    return substituted === null ? null : resolveLightDark(substituted, darkRules && this.cascade.darkSchemeDeclared());
  }

  private compute(element: HtmlElement, index: number, entries: readonly ColorEntry[]): DeclaredColors {
    const declared: DeclaredColors = { color: undefined, backgroundColor: undefined, backgroundImage: undefined };
    let canvas = this.needsCanvas(element, entries);
    const recolor = this.variant.recolor;
    for (const entry of entries) {
      if (canvas && (entry.origin === 'inline' || entry.important)) {
        // The canvas is written first into the body's style attribute.
        declared.backgroundColor = this.variant.canvas!.background;
        declared.color = this.variant.canvas!.text;
        canvas = false;
      }
      if (this.dropped(entry)) continue;
      const role = roleOf(entry.property);
      let value = entry.value;
      if (value.includes('var(') || value.includes('light-dark(')) {
        const resolved = this.resolveFunctions(value, index);
        // Unset: color inherits, backgrounds fall back to their initial values.
        value = resolved ?? (entry.property === 'color' ? 'inherit' : entry.property === 'background-image' ? 'none' : 'transparent');
      }
      if (recolor && role && value !== 'inherit') value = this.cascade.recolor(recolor, value, role);
      if (entry.property === 'color') declared.color = value;
      else if (entry.property === 'background-color') declared.backgroundColor = value;
      else if (entry.property === 'background-image') declared.backgroundImage = value;
      else {
        let color = 'transparent';
        let image = 'none';
        for (const token of splitCssValue(value)) {
          if (isLowerCaseImageValue(token)) image = token;
          else if (parseCssColor(token)) color = token;
        }
        declared.backgroundColor = color;
        declared.backgroundImage = image;
      }
    }
    if (canvas) {
      declared.backgroundColor = this.variant.canvas!.background;
      declared.color = this.variant.canvas!.text;
    } else if (this.variant.canvas && element === this.body && declared.color === undefined) {
      // A body with its own (recolored) background but no text color: the client's default dark-mode text.
      declared.color = this.variant.canvas.text;
    }
    return declared;
  }

  textColor(element: HtmlElement): Rgba {
    return this.textColorAt(this.index.of(element));
  }

  /** Where the element's colors are decided: itself, or its nearest ancestor on the color chain (-1: none). */
  private chainStart(index: number): number {
    return this.relevant === null || this.relevant[index] === 1 ? index : this.parents[index];
  }

  /**
   * The text color as painted over the background resolved behind it: a translucent color blended over
   * that background. Null when the background cannot be known (an image or gradient behind the text).
   */
  paintedTextAt(index: number): { foreground: Rgba; background: ResolvedBackground; declared: Rgba } | null {
    const background = this.backgroundAt(index);
    if (!background) return null;
    const declared = this.textColorAt(index);
    return { foreground: compositeOver(declared, background.color), background, declared };
  }

  /** The element's computed text color, translucent colors kept translucent. */
  textColorAt(index: number): Rgba {
    const at = this.chainStart(index);
    return at === -1 ? BLACK : this.index.resolveDown(this, this.textCache, at, BLACK, VariantColors.computeTextColor, this.parents);
  }

  /** Static, not a closure per instance: see resolveDown. */
  private static computeTextColor(colors: VariantColors, current: number, inherited: Rgba): Rgba {
    const declared = colors.declared(current).color;
    if (declared !== undefined && declared !== 'inherit' && declared !== 'currentcolor') {
      // A translucent color is inherited as it is and blended over the background behind the text when
      // painted (paintedTextAt), as a browser does, never over the parent's text color.
      return parseCssColor(declared) ?? inherited;
    }
    // Links do not inherit their color: the user agent paints them blue unless the author says otherwise.
    const currentElement = colors.index.elements[current];
    if (declared === undefined && currentElement.tagName === 'a' && getAttribute(currentElement, 'href') !== undefined) return colors.defaultLinkColor();
    return inherited;
  }

  private linkColor: Rgba | undefined;
  /** The user agent's link blue, or in a recoloring client's dark mode its own light link color. */
  private defaultLinkColor(): Rgba {
    this.linkColor ??= (this.variant.canvas && parseCssColor(this.variant.canvas.link)) || LINK_BLUE;
    return this.linkColor;
  }

  /** Null when an image or gradient sits behind the text, so its color cannot be known statically. */
  background(element: HtmlElement): ResolvedBackground | null {
    return this.backgroundAt(this.index.of(element));
  }

  backgroundAt(index: number): ResolvedBackground | null {
    const at = this.chainStart(index);
    if (at === -1) return CANVAS;
    const resolved = this.index.resolveDown<ResolvedBackground | false, VariantColors>(
      this,
      this.backgroundCache,
      at,
      CANVAS,
      VariantColors.computeBackground,
      this.parents,
    );
    return resolved === false ? null : resolved;
  }

  private static computeBackground(colors: VariantColors, current: number, below: ResolvedBackground | false): ResolvedBackground | false {
    const declared = colors.declared(current);
    const image = declared.backgroundImage;
    if (image && image !== 'none' && isLowerCaseImageValue(image)) return false;
    const own = declared.backgroundColor ? parseCssColor(declared.backgroundColor) : null;
    if (own && own.alpha >= 1) return { color: own, from: colors.index.elements[current] };
    if (!below) return false;
    if (own && own.alpha > 0) return { color: compositeOver(own, below.color), from: colors.index.elements[current] };
    return below;
  }
}
