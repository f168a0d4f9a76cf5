/**
 * Typography and color consistency: the distinct font families, sizes, colors, line heights, spacing
 * and radii the email declares, colors that are near-duplicates by perceptual distance (CIEDE2000),
 * and scales with more steps than a design system would use.
 */
import { getAttribute, type HtmlElement } from '../parse/dom';
import { labDistance, labDistanceLowerBound, parseCssColor, splitCssValue, toHex, toLab, type Lab } from './context/color-utils';
import type { ReportContext } from './context/report-context';
import { sortIssues, type ReportIssue } from './context/report-issue';
import { lengthToPx } from './context/report-styles';
import type { ReportDeclaration, SheetRule } from './context/sheet-rules';

export interface DesignValue {
  value: string;
  count: number;
}

export interface NearDuplicateColor {
  a: string;
  b: string;
  /** CIEDE2000; under about 2.3 most people cannot tell them apart. */
  distance: number;
}

export interface DesignReport {
  fontFamilies: DesignValue[];
  /** First family of each stack, the typeface readers see. */
  typefaces: DesignValue[];
  fontSizes: DesignValue[];
  textColors: DesignValue[];
  backgroundColors: DesignValue[];
  lineHeights: DesignValue[];
  spacing: DesignValue[];
  borderRadii: DesignValue[];
  nearDuplicateColors: NearDuplicateColor[];
  issues: ReportIssue[];
}

export const MAX_TYPEFACES = 3;
export const MAX_FONT_SIZES = 6;
export const MAX_TEXT_COLORS = 8;
export const MAX_LINE_HEIGHTS = 5;
export const MAX_SPACING_VALUES = 12;
/** Colors closer than this (CIEDE2000) but not equal are probably meant to be the same color. */
export const NEAR_DUPLICATE_DISTANCE = 3;
/** Pairwise comparison is quadratic; hostile input with thousands of colors compares only the first ones. */
const MAX_COLORS_COMPARED = 300;

export const GENERIC_FAMILIES: ReadonlySet<string> = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-sans-serif',
  'ui-serif',
  'ui-monospace',
  'ui-rounded',
  'math',
  'emoji',
  'fangsong',
]);
const SPACING_PROPERTIES = new Set([
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'gap',
  'row-gap',
  'column-gap',
]);
/** The properties the tallies read; every other declaration is skipped at once. */
const DESIGN_PROPERTIES = new Set([
  'font-family',
  'font-size',
  'line-height',
  'color',
  'background-color',
  'background',
  'border-radius',
  ...SPACING_PROPERTIES,
]);
const COLOR_KEYWORDS_SKIPPED = new Set(['inherit', 'initial', 'unset', 'currentcolor', 'transparent', 'none', 'revert']);

type Contribution = [target: Tally | Set<string>, value: string];

class Tally {
  private readonly counts = new Map<string, number>();
  /** values(), sorted once after the last add (messages and the report both read it). */
  private sorted: DesignValue[] | undefined;
  add(value: string, times = 1): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + times);
    this.sorted = undefined;
  }
  get size(): number {
    return this.counts.size;
  }
  /** A fresh array each time (the items are read, never changed), sorted once. */
  values(): DesignValue[] {
    if (!this.sorted) {
      const values: DesignValue[] = [];
      this.counts.forEach((count, value) => values.push({ value, count }));
      this.sorted = values.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    }
    return this.sorted.slice();
  }
}

const CSS_WIDE_KEYWORDS: ReadonlySet<string> = new Set(['inherit', 'initial', 'unset', 'revert', 'revert-layer']);

export function normalizeStack(value: string): string[] {
  return value
    .split(',')
    .map((family) =>
      family
        .trim()
        .replace(/^["']|["']$/g, '')
        .trim()
        .toLowerCase(),
    )
    .filter((family) => family.length > 0);
}

function formatPx(px: number): string {
  return `${Math.round(px * 100) / 100}px`;
}

/**
 * The design tallies: what the email's declarations and presentational attributes add up to, and the
 * report built from them.
 */
class DesignTallies {
  private readonly stacks = new Tally();
  private readonly typefaces = new Tally();
  private readonly fontSizes = new Tally();
  private readonly textColors = new Tally();
  private readonly backgroundColors = new Tally();
  private readonly lineHeights = new Tally();
  private readonly spacing = new Tally();
  private readonly radii = new Tally();
  private readonly hexByValue = new Map<string, string | null>();
  private readonly alphaByHex = new Map<string, number>();
  private readonly stacksWithoutGeneric = new Set<string>();
  /** Per property, per value: declarations repeat a lot (padding: 0, color: #333333). */
  private readonly memo = new Map<string, Map<string, Contribution[]>>();

  /** The `<style>` rules, except the dark-mode ones. */
  addSheetRules(rules: readonly SheetRule[]): void {
    for (const rule of rules) {
      // Dark-mode overrides are a second palette by design, not drift.
      if (rule.media?.includes('prefers-color-scheme')) continue;
      if (rule.selectorText.includes('data-ogsc') || rule.selectorText.includes('data-ogsb')) continue;
      for (const declaration of rule.declarations) this.consider(declaration);
    }
  }

  addInlineStyles(context: ReportContext): void {
    // Identical style attributes share one parsed declaration list: consider each distinct list once, weighted.
    const inlineLists = new Map<readonly ReportDeclaration[], number>();
    for (const element of context.doc.parsed.inlineStyles.keys()) {
      const declarations = context.styles.inlineDeclarations(element);
      inlineLists.set(declarations, (inlineLists.get(declarations) ?? 0) + 1);
    }
    inlineLists.forEach((times, declarations) => {
      for (const declaration of declarations) this.consider(declaration, times);
    });
  }

  /** bgcolor on any element, and `<font color face>`. */
  addPresentationalAttributes(elements: readonly HtmlElement[]): void {
    for (const element of elements) {
      if (element.attrs.length === 0) continue;
      const bgcolor = getAttribute(element, 'bgcolor');
      if (bgcolor) this.addColor(this.backgroundColors, bgcolor);
      if (element.tagName === 'font') {
        const color = getAttribute(element, 'color');
        if (color) this.addColor(this.textColors, color);
        const face = getAttribute(element, 'face');
        if (face) this.consider({ property: 'font-family', value: face, important: false });
      }
    }
  }

  report(): DesignReport {
    const issues = this.scaleIssues();
    const nearDuplicateColors = findNearDuplicateColors(this.alphaByHex);
    for (const pair of nearDuplicateColors.slice(0, 20)) {
      issues.push({
        rule: 'near-duplicate-colors',
        severity: 'info',
        message: `${pair.a} and ${pair.b} are almost the same color (ΔE ${pair.distance}); pick one.`,
      });
    }
    return {
      fontFamilies: this.stacks.values(),
      typefaces: this.typefaces.values(),
      fontSizes: this.fontSizes.values(),
      textColors: this.textColors.values(),
      backgroundColors: this.backgroundColors.values(),
      lineHeights: this.lineHeights.values(),
      spacing: this.spacing.values(),
      borderRadii: this.radii.values(),
      nearDuplicateColors,
      issues: sortIssues(issues),
    };
  }

  private consider(declaration: ReportDeclaration, times = 1): void {
    if (!DESIGN_PROPERTIES.has(declaration.property)) return;
    let byValue = this.memo.get(declaration.property);
    if (!byValue) {
      byValue = new Map();
      this.memo.set(declaration.property, byValue);
    }
    let contributions = byValue.get(declaration.value);
    if (!contributions) {
      contributions = this.contributionsOf(declaration.property, declaration.value);
      byValue.set(declaration.value, contributions);
    }
    for (let i = 0; i < contributions.length; i++) {
      const target = contributions[i][0];
      if (target instanceof Set) target.add(contributions[i][1]);
      else target.add(contributions[i][1], times);
    }
  }

  /** What one declaration adds to the tallies; the same property and value always add the same. */
  private contributionsOf(property: string, value: string): Contribution[] {
    const out: Contribution[] = [];
    if (property.startsWith('mso-') || property.startsWith('-')) return out;
    switch (property) {
      case 'font-family':
        this.fontFamilyContributions(out, value);
        return out;
      case 'font-size': {
        const px = lengthToPx(value);
        const lower = value.trim().toLowerCase();
        // em and % depend on the parent; count only sizes a reader sees as written.
        if (lower.endsWith('em') && !lower.endsWith('rem')) out.push([this.fontSizes, lower]);
        else if (lower.endsWith('%')) out.push([this.fontSizes, lower]);
        else if (!Number.isNaN(px) && px > 1) out.push([this.fontSizes, formatPx(px)]);
        return out;
      }
      case 'line-height':
        if (value.trim() !== '' && value.trim().toLowerCase() !== 'normal') out.push([this.lineHeights, value.trim().toLowerCase()]);
        return out;
      case 'color':
        this.colorContribution(out, this.textColors, value);
        return out;
      case 'background-color':
        this.colorContribution(out, this.backgroundColors, value);
        return out;
      case 'background':
        for (const token of splitCssValue(value)) if (parseCssColor(token)) this.colorContribution(out, this.backgroundColors, token);
        return out;
      case 'border-radius':
        for (const token of splitCssValue(value))
          if (token !== '/' && token !== '0' && !Number.isNaN(lengthToPx(token))) out.push([this.radii, token.toLowerCase()]);
        return out;
      default:
        if (SPACING_PROPERTIES.has(property)) this.spacingContributions(out, value);
    }
    return out;
  }

  private fontFamilyContributions(out: Contribution[], value: string): void {
    const families = normalizeStack(value);
    // `inherit` and the other CSS-wide keywords are not a stack: the element takes its parent's fonts.
    if (families.length === 0 || (families.length === 1 && CSS_WIDE_KEYWORDS.has(families[0]))) return;
    const stack = families.join(', ');
    out.push([this.stacks, stack]);
    if (!GENERIC_FAMILIES.has(families[0])) out.push([this.typefaces, families[0]]);
    if (!families.some((family) => GENERIC_FAMILIES.has(family)) && !families[0].startsWith('var(')) out.push([this.stacksWithoutGeneric, stack]);
  }

  private spacingContributions(out: Contribution[], value: string): void {
    for (const token of splitCssValue(value)) {
      const px = lengthToPx(token);
      if (!Number.isNaN(px) && px > 0)
        out.push([this.spacing, token.toLowerCase().endsWith('px') || /^[\d.]+$/.test(token) ? formatPx(px) : token.toLowerCase()]);
    }
  }

  /** The color's hex (memoised per written value), or null for keywords, transparent and unparsable values. */
  private hexOf(value: string): string | null {
    const lower = value.trim().toLowerCase();
    let hex = this.hexByValue.get(lower);
    if (hex === undefined) {
      const color = COLOR_KEYWORDS_SKIPPED.has(lower) ? null : parseCssColor(lower);
      hex = color && color.alpha > 0 ? toHex(color) : null;
      if (color && hex) this.alphaByHex.set(hex, color.alpha);
      this.hexByValue.set(lower, hex);
    }
    return hex;
  }

  private addColor(tally: Tally, value: string): void {
    const hex = this.hexOf(value);
    if (hex) tally.add(hex);
  }

  private colorContribution(out: Contribution[], tally: Tally, value: string): void {
    const hex = this.hexOf(value);
    if (hex) out.push([tally, hex]);
  }

  /** Scales with more steps than a design system would use, and font stacks without a generic family. */
  private scaleIssues(): ReportIssue[] {
    const { typefaces, fontSizes, textColors, lineHeights, spacing } = this;
    const issues: ReportIssue[] = [];
    if (typefaces.size > MAX_TYPEFACES) {
      issues.push({
        rule: 'too-many-typefaces',
        severity: 'warning',
        message: `${typefaces.size} different typefaces (${typefaces
          .values()
          .map((item) => item.value)
          .join(', ')}); most emails need ${MAX_TYPEFACES} or fewer.`,
      });
    }
    for (const stack of [...this.stacksWithoutGeneric].sort()) {
      issues.push({
        rule: 'font-stack-no-generic',
        severity: 'info',
        message: `The font stack "${stack}" ends without a generic family (sans-serif, serif); clients without these fonts fall back to their default, often Times New Roman.`,
      });
    }
    const absoluteSizes = fontSizes.values().filter((item) => item.value.endsWith('px') && !item.value.endsWith('em'));
    if (absoluteSizes.length > MAX_FONT_SIZES) {
      issues.push({
        rule: 'too-many-font-sizes',
        severity: 'warning',
        message: `${absoluteSizes.length} different font sizes (${absoluteSizes
          .map((item) => item.value)
          .sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b))
          .join(', ')}); a type scale of ${MAX_FONT_SIZES} or fewer reads as deliberate.`,
      });
    }
    if (textColors.size > MAX_TEXT_COLORS) {
      issues.push({ rule: 'too-many-text-colors', severity: 'info', message: `${textColors.size} different text colors; consider a smaller palette.` });
    }
    if (lineHeights.size > MAX_LINE_HEIGHTS) {
      issues.push({
        rule: 'too-many-line-heights',
        severity: 'info',
        message: `${lineHeights.size} different line heights (${lineHeights
          .values()
          .map((item) => item.value)
          .join(', ')}).`,
      });
    }
    if (spacing.size > MAX_SPACING_VALUES) {
      issues.push({
        rule: 'too-many-spacing-values',
        severity: 'info',
        message: `${spacing.size} different padding and margin values; a spacing scale (4px or 8px steps) keeps rhythm consistent.`,
      });
    }
    return issues;
  }
}

/** Pairs of colors (with the same alpha) closer than NEAR_DUPLICATE_DISTANCE but not equal, closest first. */
function findNearDuplicateColors(alphaByHex: ReadonlyMap<string, number>): NearDuplicateColor[] {
  const nearDuplicateColors: NearDuplicateColor[] = [];
  const colorList = [...alphaByHex.keys()].sort().slice(0, MAX_COLORS_COMPARED);
  // Converted to Lab once per color, not once per pair.
  const labs: Lab[] = colorList.map((hex) => toLab(parseCssColor(hex)!));
  const alphas = colorList.map((hex) => alphaByHex.get(hex));
  for (let i = 0; i < colorList.length; i++) {
    for (let j = i + 1; j < colorList.length; j++) {
      if (alphas[i] !== alphas[j]) continue;
      // Most pairs differ in lightness alone by more than the threshold: no need for the full formula
      // (a hair of margin for rounding, so that no pair the formula would keep is skipped).
      if (labDistanceLowerBound(labs[i], labs[j]) >= NEAR_DUPLICATE_DISTANCE + 1e-9) continue;
      const distance = labDistance(labs[i], labs[j]);
      if (distance > 0 && distance < NEAR_DUPLICATE_DISTANCE) {
        nearDuplicateColors.push({ a: colorList[i], b: colorList[j], distance: Math.round(distance * 100) / 100 });
      }
    }
  }
  return nearDuplicateColors.sort((x, y) => x.distance - y.distance || (x.a < y.a ? -1 : 1));
}

export function buildDesignReport(context: ReportContext): DesignReport {
  const tallies = new DesignTallies();
  tallies.addSheetRules(context.sheet.rules);
  tallies.addInlineStyles(context);
  tallies.addPresentationalAttributes(context.doc.parsed.elements);
  return tallies.report();
}
