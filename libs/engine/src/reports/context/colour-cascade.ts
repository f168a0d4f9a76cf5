/**
 * Text and background colours per element, for the email as written (light) and for each client's
 * dark-mode variant. A variant is described by what the dark-mode pass hands over (how it recolours,
 * which declarations the client drops, which elements Outlook.com marks), never by re-parsing its HTML:
 * the colour-carrying declarations of an element are collected once, in cascade order, and each variant
 * only filters and recolours them.
 */
import type { Rule } from 'postcss';
import { MatchedRule, matchRules } from '../../analysis/style-cascade';
import type { ColourRole } from '../../dark-mode/colour-inversion';
import { MatchContext } from '../../parse/css-selector';
import { HtmlElement, getAttribute } from '../../parse/dom';
import { BLACK, LINK_BLUE, WHITE, compositeOver, isLowerCaseImageValue, parseCssColor, splitCssValue, type Rgba } from './color-utils';
import { perElement, type ElementIndex } from './report-document';
import { COLOUR_PROPERTIES, colourHintProperty, type ReportStyles } from './report-styles';
import type { SheetRule } from './sheet-rules';


/** Which clients drop a `<style>` rule's or an inline declaration's colour (bit i: CLIENT_IDS[i]). */
export interface DropMasks {
  /** Bits of the clients that drop this declaration of the rule (its at-rules and selector included). */
  ruleDeclaration(rule: SheetRule, index: number): number;
  /** The same when the client inlines the rule (Gmail): only the declaration's own features count. */
  inlinedRuleDeclaration(rule: SheetRule, index: number): number;
  inlineDeclaration(element: HtmlElement, index: number): number;
}

export interface ColourVariant {
  /** Variants with equal keys (and equal drop bits) paint every colour alike and are computed once. */
  key: string;
  /** The client's bit in DropMasks; 0 for the email as written. */
  clientBit: number;
  /** Recolours a CSS value as the client's dark mode does (shared by the clients of one mode); null keeps the email's colours. */
  recolour: Recolourer | null;
  /** Apply the email's `@media (prefers-color-scheme: dark)` rules. */
  darkRules: boolean;
  /** The client inlines top-level rules into style attributes (Gmail). */
  inlinesRules: boolean;
  /** What the client paints behind a body without a background of its own. */
  canvas: { background: string; text: string; link: string } | null;
  /** Elements the client marks as recoloured (Outlook.com's data-ogsc / data-ogsb), so `[data-og…]` rules apply. */
  markers: { foreground: ReadonlySet<HtmlElement>; background: ReadonlySet<HtmlElement> } | null;
}

export interface Recolourer {
  colour(value: string, role: ColourRole): string;
}

export const LIGHT_VARIANT: ColourVariant = { key: 'light', clientBit: 0, recolour: null, darkRules: false, inlinesRules: false, canvas: null, markers: null };


/** One colour-carrying declaration of an element, in cascade order. */
interface ColourEntry {
  property: string;
  value: string;
  important: boolean;
  origin: 'hint' | 'rule' | 'inline';
  /** Clients that drop it (as a rule, and as an inlined top-level rule). */
  mask: number;
  inlinedMask: number;
  topLevel: boolean;
}

interface DeclaredColours {
  color: string | undefined;
  backgroundColor: string | undefined;
  backgroundImage: string | undefined;
}

export interface ResolvedBackground {
  color: Rgba;
  /** The element whose background is painted behind the text; null for the default canvas. */
  from: HtmlElement | null;
}

function roleOf(property: string): ColourRole | null {
  if (property === 'color') return 'foreground';
  if (property === 'background' || property === 'background-color') return 'background';
  return null;
}

class MarkerMatchContext extends MatchContext {
  constructor(private readonly markers: NonNullable<ColourVariant['markers']>) {
    super();
  }
  override attribute(element: HtmlElement, name: string): string | undefined {
    if (name === 'data-ogsc' && this.markers.foreground.has(element)) return '';
    if (name === 'data-ogsb' && this.markers.background.has(element)) return '';
    return super.attribute(element, name);
  }
}

const CANVAS: ResolvedBackground = { color: WHITE, from: null };
const NO_ENTRIES: ColourEntry[] = [];
const NOTHING_DECLARED: DeclaredColours = Object.freeze({ color: undefined, backgroundColor: undefined, backgroundImage: undefined });

const NO_MASKS: DropMasks = { ruleDeclaration: () => 0, inlinedRuleDeclaration: () => 0, inlineDeclaration: () => 0 };

/** Colour entries per element, shared by every variant of one email. */
export class ColourCascade {
  private readonly entries: Array<ColourEntry[] | undefined>;
  /** Recoloured values per recolourer and role, keyed by the entry's value string (no key building per lookup). */
  private readonly recoloured = new Map<Recolourer, Record<ColourRole, Map<string, string>>>();
  private readonly darkEntries: Array<ColourEntry[] | undefined>;
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

  private readonly shared = new Map<string, Array<DeclaredColours | undefined>>();

  /** Declared colours shared by the variants that recolour alike, for elements none of them drops anything of. */
  sharedDeclared(variant: ColourVariant): Array<DeclaredColours | undefined> {
    const key = `${this.recolourerId(variant.recolour)}|${variant.darkRules ? 'dark' : ''}`;
    let list = this.shared.get(key);
    if (!list) {
      list = perElement(this.styles.doc.index.elements.length);
      this.shared.set(key, list);
    }
    return list;
  }

  private readonly recolourerIds = new Map<Recolourer, number>();
  private recolourerId(recolourer: Recolourer | null): number {
    if (!recolourer) return 0;
    let id = this.recolourerIds.get(recolourer);
    if (id === undefined) {
      id = this.recolourerIds.size + 1;
      this.recolourerIds.set(recolourer, id);
    }
    return id;
  }

  recolour(recolourer: Recolourer, value: string, role: ColourRole): string {
    let byRole = this.recoloured.get(recolourer);
    if (!byRole) {
      byRole = { background: new Map(), foreground: new Map() };
      this.recoloured.set(recolourer, byRole);
    }
    let result = byRole[role].get(value);
    if (result === undefined) {
      result = recolourer.colour(value, role);
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
    return this.entriesOf(body, false).some((entry) => entry.origin === 'rule' && entry.topLevel && (entry.property === 'background' || entry.property === 'background-color'));
  }

  /** Every drop mask some entry built so far carries (variants differing only elsewhere paint alike). */
  get dropMasks(): ReadonlySet<number> {
    return this.masksSeen;
  }

  private build(element: HtmlElement, rules: readonly SheetRule[]): ColourEntry[] {
    const normal: ColourEntry[] = [];
    const important: ColourEntry[] = [];
    for (const attr of element.attrs) {
      // The name first: most attributes carry no colour, and their values (hrefs, styles) are long.
      const property = colourHintProperty(element.tagName, attr.name);
      if (property === undefined || attr.prefix) continue;
      const value = attr.value.trim().toLowerCase();
      if (value === '') continue;
      normal.push(this.entry(property, property === 'background-image' ? `url(${value})` : value, false, 'hint', 0, 0, false));
    }
    for (const rule of rules) {
      rule.declarations.forEach((d, index) => {
        if (!COLOUR_PROPERTIES.has(d.property)) return;
        const entry = this.entry(d.property, d.value.toLowerCase(), d.important, 'rule', this.masks.ruleDeclaration(rule, index), this.masks.inlinedRuleDeclaration(rule, index), rule.topLevel);
        (d.important ? important : normal).push(entry);
      });
    }
    this.styles.inlineDeclarations(element).forEach((d, index) => {
      if (!COLOUR_PROPERTIES.has(d.property)) return;
      const mask = this.masks.inlineDeclaration(element, index);
      const entry = this.entry(d.property, d.value.toLowerCase(), d.important, 'inline', mask, mask, false);
      (d.important ? important : normal).push(entry);
    });
    // Rules come sorted; inline entries were pushed after them, which is their cascade place.
    if (normal.length === 0 && important.length === 0) return NO_ENTRIES;
    return important.length > 0 ? normal.concat(important) : normal;
  }

  private entry(property: string, value: string, important: boolean, origin: ColourEntry['origin'], mask: number, inlinedMask: number, topLevel: boolean): ColourEntry {
    this.masksSeen.add(mask);
    this.masksSeen.add(inlinedMask);
    if (topLevel && mask !== inlinedMask) this.inliningChangesMasks = true;
    return { property, value, important, origin, mask, inlinedMask, topLevel };
  }

  entriesOf(element: HtmlElement, darkRules: boolean, extra?: readonly MatchedRule[]): ColourEntry[] {
    return this.entriesAt(this.styles.doc.index.of(element), darkRules, extra);
  }

  entriesAt(index: number, darkRules: boolean, extra?: readonly MatchedRule[]): ColourEntry[] {
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

  private colourChain: { relevant: Uint8Array; parents: Int32Array } | undefined;

  /**
   * The elements whose colours can differ from their parent's (a colour source of their own, the body's
   * canvas, a link's default blue) and, for every element, the nearest such ancestor. Most elements set
   * no colour: variants resolve colours along this shorter chain and skip them. Not for variants with
   * Outlook.com's marker rules, whose extra matches can colour any element.
   */
  colourParents(): { relevant: Uint8Array; parents: Int32Array } {
    if (this.colourChain) return this.colourChain;
    const { doc } = this.styles;
    const { elements, parent } = doc.index;
    const relevant = new Uint8Array(elements.length);
    const parents = new Int32Array(elements.length);
    for (let i = 0; i < elements.length; i++) {
      const element = elements[i];
      if (this.styles.mayDeclareColour(i) || element === doc.body || (element.tagName === 'a' && getAttribute(element, 'href') !== undefined)) relevant[i] = 1;
      // Parents are numbered before their children.
      const up = parent[i];
      parents[i] = up === -1 ? -1 : relevant[up] === 1 ? up : parents[up];
    }
    this.colourChain = { relevant, parents };
    return this.colourChain;
  }

  /** Matches the rules that mention Outlook.com's markers against a variant's marked elements. */
  markerMatches(markers: NonNullable<ColourVariant['markers']>): Map<HtmlElement, MatchedRule[]> {
    const { doc, sheet, selectors } = this.styles;
    const rules: Rule[] = sheet.rules.filter((rule) => !rule.nested && rule.media === null && /data-ogs[cb]/i.test(rule.selectorText)).map((rule) => rule.rule);
    if (rules.length === 0) return new Map();
    return matchRules(doc.parsed, selectors, rules, (rule) => sheet.byRule.get(rule)?.order ?? 0, new MarkerMatchContext(markers));
  }
}

/** Colours of one variant, memoised per element. */
export class VariantColours {
  private readonly declaredCache: Array<DeclaredColours | undefined>;
  private readonly textCache: Array<Rgba | undefined>;
  /** False stands for "unknown background" (null), since undefined means "not computed". */
  private readonly backgroundCache: Array<ResolvedBackground | false | undefined>;
  private readonly extra: Map<HtmlElement, MatchedRule[]> | null;
  private readonly body: HtmlElement | null;
  private readonly index: ElementIndex;
  private readonly sharedList: Array<DeclaredColours | undefined>;
  /** Which elements resolve colours, and each one's parent among them (see ColourCascade.colourParents). */
  private readonly relevant: Uint8Array | null;
  private readonly parents: Int32Array;

  constructor(
    private readonly cascade: ColourCascade,
    readonly variant: ColourVariant,
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
      ({ relevant: this.relevant, parents: this.parents } = cascade.colourParents());
    }
    this.declaredCache = perElement(count);
    this.textCache = perElement(count);
    this.backgroundCache = perElement(count);
  }

  private dropped(entry: ColourEntry): boolean {
    const bit = this.variant.clientBit;
    if (bit === 0) return false;
    const mask = this.variant.inlinesRules && entry.topLevel ? entry.inlinedMask : entry.mask;
    return (mask & bit) !== 0;
  }

  /** A body without a background of its own gets the client's dark canvas, as the dark-mode pass paints it. */
  private needsCanvas(element: HtmlElement, entries: readonly ColourEntry[]): boolean {
    if (!this.variant.canvas || element !== this.body || getAttribute(element, 'bgcolor')) return false;
    for (const entry of entries) {
      const ownStyle = entry.origin === 'inline' || (this.variant.inlinesRules && entry.origin === 'rule' && entry.topLevel);
      if (ownStyle && roleOf(entry.property) === 'background' && !this.dropped(entry)) return false;
    }
    return true;
  }

  private declared(index: number): DeclaredColours {
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
    declared = this.compute(element, entries);
    if (shared) shared[index] = declared;
    this.declaredCache[index] = declared;
    return declared;
  }

  private compute(element: HtmlElement, entries: readonly ColourEntry[]): DeclaredColours {
    const declared: DeclaredColours = { color: undefined, backgroundColor: undefined, backgroundImage: undefined };
    let canvas = this.needsCanvas(element, entries);
    const recolour = this.variant.recolour;
    for (const entry of entries) {
      if (canvas && (entry.origin === 'inline' || entry.important)) {
        // The canvas is written first into the body's style attribute.
        declared.backgroundColor = this.variant.canvas!.background;
        declared.color = this.variant.canvas!.text;
        canvas = false;
      }
      if (this.dropped(entry)) continue;
      const role = roleOf(entry.property);
      const value = recolour && role ? this.cascade.recolour(recolour, entry.value, role) : entry.value;
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
      // A body with its own (recoloured) background but no text colour: the client's default dark-mode text.
      declared.color = this.variant.canvas.text;
    }
    return declared;
  }

  textColor(element: HtmlElement): Rgba {
    return this.textColorAt(this.index.of(element));
  }

  /** Where the element's colours are decided: itself, or its nearest ancestor on the colour chain (-1: none). */
  private chainStart(index: number): number {
    return this.relevant === null || this.relevant[index] === 1 ? index : this.parents[index];
  }

  textColorAt(index: number): Rgba {
    const at = this.chainStart(index);
    return at === -1 ? BLACK : this.index.resolveDown(this, this.textCache, at, BLACK, VariantColours.computeTextColor, this.parents);
  }

  /** Static, not a closure per instance: see resolveDown. */
  private static computeTextColor(colours: VariantColours, current: number, inherited: Rgba): Rgba {
    const declared = colours.declared(current).color;
    if (declared !== undefined && declared !== 'inherit' && declared !== 'currentcolor') {
      const parsed = parseCssColor(declared);
      return parsed ? compositeOver(parsed, inherited) : inherited;
    }
    // Links do not inherit their colour: the user agent paints them blue unless the author says otherwise.
    const currentElement = colours.index.elements[current];
    if (declared === undefined && currentElement.tagName === 'a' && getAttribute(currentElement, 'href') !== undefined) return colours.defaultLinkColour();
    return inherited;
  }

  private linkColour: Rgba | undefined;
  /** The user agent's link blue, or in a recolouring client's dark mode its own light link colour. */
  private defaultLinkColour(): Rgba {
    this.linkColour ??= (this.variant.canvas && parseCssColor(this.variant.canvas.link)) || LINK_BLUE;
    return this.linkColour;
  }

  /** Null when an image or gradient sits behind the text, so its colour cannot be known statically. */
  background(element: HtmlElement): ResolvedBackground | null {
    return this.backgroundAt(this.index.of(element));
  }

  backgroundAt(index: number): ResolvedBackground | null {
    const at = this.chainStart(index);
    if (at === -1) return CANVAS;
    const resolved = this.index.resolveDown<ResolvedBackground | false, VariantColours>(this, this.backgroundCache, at, CANVAS, VariantColours.computeBackground, this.parents);
    return resolved === false ? null : resolved;
  }

  private static computeBackground(colours: VariantColours, current: number, below: ResolvedBackground | false): ResolvedBackground | false {
    const declared = colours.declared(current);
    const image = declared.backgroundImage;
    if (image && image !== 'none' && isLowerCaseImageValue(image)) return false;
    const own = declared.backgroundColor ? parseCssColor(declared.backgroundColor) : null;
    if (own && own.alpha >= 1) return { color: own, from: colours.index.elements[current] };
    if (!below) return false;
    if (own && own.alpha > 0) return { color: compositeOver(own, below.color), from: colours.index.elements[current] };
    return below;
  }
}
