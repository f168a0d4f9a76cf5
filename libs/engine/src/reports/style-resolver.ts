/**
 * A static cascade over inline styles, `<style>` rules and presentational attributes: enough to know an
 * element's text colour, background, font size and whether it is hidden as the email first renders.
 * Results are memoised per element, so asking about every text node stays linear.
 */
import { BLACK, LINK_BLUE, WHITE, compositeOver, isImageValue, parseCssColor, splitCssValue, type Rgba } from './color-utils';
import { matchesSelector } from './css-selector';
import { classList, type EmailElement, type ParsedEmail } from './parsed-email';
import { parseInlineStyle, type CssDeclaration, type IndexedSelector } from './style-sheet';

export interface StyleResolverOptions {
  /** Apply `@media (prefers-color-scheme: dark)` rules (clients that honour the email's dark styles). */
  darkMedia: boolean;
}

export interface ResolvedBackground {
  color: Rgba;
  /** The element whose background is painted behind the text; null for the default white canvas. */
  from: EmailElement | null;
}

export interface StyleResolver {
  /** Cascaded (not inherited) value of a property on the element. */
  get(element: EmailElement, property: string): string | undefined;
  /** Why the element (or an ancestor) is invisible, or null. */
  hiddenReason(element: EmailElement): string | null;
  textColor(element: EmailElement): Rgba;
  /** Null when an image or gradient sits behind the text, so its colour cannot be known statically. */
  background(element: EmailElement): ResolvedBackground | null;
  fontSizePx(element: EmailElement): number;
  isBold(element: EmailElement): boolean;
  inlineDeclarations(element: EmailElement): CssDeclaration[];
}

const FONT_SIZE_KEYWORDS: Record<string, number> = {
  'xx-small': 9, 'x-small': 10, small: 13, medium: 16, large: 18, 'x-large': 24, 'xx-large': 32, 'xxx-large': 48,
};
const FONT_TAG_SIZES: Record<string, number> = { '1': 10, '2': 13, '3': 16, '4': 18, '5': 24, '6': 32, '7': 48 };
const HEADING_EM: Record<string, number> = { h1: 2, h2: 1.5, h3: 1.17, h4: 1, h5: 0.83, h6: 0.67 };
const BOLD_TAGS = new Set(['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Whether rules under this media condition apply to the email as first rendered on a desktop. */
export function mediaApplies(media: string | null, darkMedia: boolean): boolean {
  if (media === null) return true;
  if (media.includes('prefers-color-scheme')) return darkMedia && media.includes('dark') && !media.includes('not ');
  if (media.includes('print')) return false;
  // Width and other feature queries describe other viewports; a bare media type applies.
  return !media.includes('(');
}

/** Parses a CSS length to px, relative to `basePx` for em and %. NaN when it is not a length. */
export function lengthToPx(value: string, basePx = 16): number {
  const text = value.trim().toLowerCase();
  if (text === '0') return 0;
  let end = 0;
  while (end < text.length && ((text[end] >= '0' && text[end] <= '9') || text[end] === '.' || (end === 0 && (text[end] === '-' || text[end] === '+')))) end++;
  const amount = Number.parseFloat(text.slice(0, end));
  if (!Number.isFinite(amount)) return Number.NaN;
  const unit = text.slice(end).trim();
  switch (unit) {
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

function presentationalHints(element: EmailElement): CssDeclaration[] {
  const hints: CssDeclaration[] = [];
  const add = (property: string, value: string | undefined): void => {
    if (value !== undefined && value.trim() !== '') hints.push({ property, value: value.trim(), important: false });
  };
  add('background-color', element.attrs.get('bgcolor'));
  const backgroundAttribute = element.attrs.get('background');
  if (backgroundAttribute) add('background-image', `url(${backgroundAttribute})`);
  if (element.tag === 'font') {
    add('color', element.attrs.get('color'));
    add('font-family', element.attrs.get('face'));
    const size = element.attrs.get('size');
    if (size && FONT_TAG_SIZES[size.trim()]) add('font-size', `${FONT_TAG_SIZES[size.trim()]}px`);
  }
  if (element.tag === 'body') add('color', element.attrs.get('text'));
  if (element.attrs.has('hidden')) add('display', 'none');
  return hints;
}

/** Expands the shorthands that carry colour or size into their longhands. */
function applyDeclaration(target: Map<string, string>, declaration: CssDeclaration): void {
  const { property, value } = declaration;
  if (property === 'background') {
    let color = 'transparent';
    let image = 'none';
    for (const token of splitCssValue(value)) {
      if (isImageValue(token)) image = token;
      else if (parseCssColor(token)) color = token;
    }
    target.set('background-color', color);
    target.set('background-image', image);
    return;
  }
  if (property === 'font') {
    const tokens = splitCssValue(value);
    for (let i = 0; i < tokens.length; i++) {
      const [size, lineHeight] = tokens[i].split('/');
      if (!Number.isNaN(lengthToPx(size)) || FONT_SIZE_KEYWORDS[size] !== undefined) {
        target.set('font-size', size);
        if (lineHeight) target.set('line-height', lineHeight);
        const family = tokens.slice(i + 1).join(' ').replace(/ , /g, ', ');
        if (family) target.set('font-family', family);
        if (tokens.slice(0, i).some((token) => token === 'bold' || Number(token) >= 600)) target.set('font-weight', 'bold');
        break;
      }
    }
    return;
  }
  target.set(property, value);
}

/**
 * Computes an inherited value for the element from its nearest cached ancestor downwards, iteratively,
 * so that a hostile nesting depth cannot overflow the call stack.
 */
function resolveDownFromRoot<T>(
  cache: (T | undefined)[],
  element: EmailElement,
  rootValue: T,
  compute: (element: EmailElement, parentValue: T) => T,
): T {
  const chain: EmailElement[] = [];
  let current: EmailElement | null = element;
  while (current && current.tag !== '#document' && cache[current.index] === undefined) {
    chain.push(current);
    current = current.parent;
  }
  let value = current && current.tag !== '#document' ? (cache[current.index] as T) : rootValue;
  for (let i = chain.length - 1; i >= 0; i--) {
    value = compute(chain[i], value);
    cache[chain[i].index] = value;
  }
  return value;
}

export function createStyleResolver(parsed: ParsedEmail, options: StyleResolverOptions): StyleResolver {
  const sheet = parsed.styleSheet;
  const cascaded: (Map<string, string> | undefined)[] = [];
  const inlineCache: (CssDeclaration[] | undefined)[] = [];
  const hiddenCache: (string | null | undefined)[] = [];
  const colorCache: (Rgba | undefined)[] = [];
  const fontSizeCache: (number | undefined)[] = [];
  const backgroundCache: (ResolvedBackground | null | undefined)[] = [];

  const inlineDeclarations = (element: EmailElement): CssDeclaration[] => {
    let declarations = inlineCache[element.index];
    if (!declarations) {
      const style = element.attrs.get('style');
      declarations = style ? parseInlineStyle(style) : [];
      inlineCache[element.index] = declarations;
    }
    return declarations;
  };

  const matchingRules = (element: EmailElement): IndexedSelector[] => {
    if (sheet.rules.length === 0) return [];
    const candidates: IndexedSelector[] = [];
    const collect = (bucket: IndexedSelector[] | undefined): void => {
      if (!bucket) return;
      for (const entry of bucket) {
        if (mediaApplies(entry.rule.media, options.darkMedia) && matchesSelector(element, entry.selector)) candidates.push(entry);
      }
    };
    const id = element.attrs.get('id');
    if (id) collect(sheet.byKey.get(`#${id}`));
    for (const name of new Set(classList(element))) collect(sheet.byKey.get(`.${name}`));
    collect(sheet.byKey.get(element.tag));
    collect(sheet.universal);
    return candidates.sort((a, b) => a.selector.specificity - b.selector.specificity || a.order - b.order);
  };

  const cascade = (element: EmailElement): Map<string, string> => {
    const cached = cascaded[element.index];
    if (cached) return cached;
    const values = new Map<string, string>();
    for (const hint of presentationalHints(element)) applyDeclaration(values, hint);
    const rules = matchingRules(element);
    const inline = inlineDeclarations(element);
    for (const entry of rules) for (const declaration of entry.rule.declarations) if (!declaration.important) applyDeclaration(values, declaration);
    for (const declaration of inline) if (!declaration.important) applyDeclaration(values, declaration);
    for (const entry of rules) for (const declaration of entry.rule.declarations) if (declaration.important) applyDeclaration(values, declaration);
    for (const declaration of inline) if (declaration.important) applyDeclaration(values, declaration);
    cascaded[element.index] = values;
    return values;
  };

  const get = (element: EmailElement, property: string): string | undefined => {
    if (element.tag === '#document') return undefined;
    return cascade(element).get(property)?.toLowerCase();
  };

  const fontSizePx = (element: EmailElement): number =>
    resolveDownFromRoot(fontSizeCache, element, 16, (current, parentPx) => {
      const declared = get(current, 'font-size');
      if (declared !== undefined) {
        if (FONT_SIZE_KEYWORDS[declared] !== undefined) return FONT_SIZE_KEYWORDS[declared];
        if (declared === 'smaller') return parentPx * 0.83;
        if (declared === 'larger') return parentPx * 1.2;
        const px = lengthToPx(declared, parentPx);
        if (!Number.isNaN(px) && px >= 0) return px;
        return parentPx;
      }
      if (HEADING_EM[current.tag] !== undefined) return parentPx * HEADING_EM[current.tag];
      if (current.tag === 'small') return parentPx * 0.83;
      return parentPx;
    });

  const isBold = (element: EmailElement): boolean => {
    for (let current: EmailElement | null = element; current && current.tag !== '#document'; current = current.parent) {
      const weight = get(current, 'font-weight');
      if (weight !== undefined && weight !== 'inherit') return weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
      if (BOLD_TAGS.has(current.tag)) return true;
    }
    return false;
  };

  const hiddenReason = (element: EmailElement): string | null =>
    resolveDownFromRoot<string | null>(hiddenCache, element, null, (current, parentReason) => {
      if (parentReason !== null) return parentReason;
      const display = get(current, 'display');
      const visibility = get(current, 'visibility');
      const opacity = get(current, 'opacity');
      const overflow = get(current, 'overflow');
      const maxHeight = get(current, 'max-height');
      const height = get(current, 'height');
      if (display === 'none') return 'display:none';
      if (visibility === 'hidden' || visibility === 'collapse') return 'visibility:hidden';
      if (opacity !== undefined && Number.parseFloat(opacity) === 0) return 'opacity:0';
      if (overflow === 'hidden' && ((maxHeight !== undefined && lengthToPx(maxHeight) === 0) || (height !== undefined && lengthToPx(height) === 0))) {
        return 'zero height with overflow:hidden';
      }
      if (current.tag === 'head' || current.tag === 'script' || current.tag === 'style' || current.tag === 'template') return `<${current.tag}>`;
      return null;
    });

  const textColor = (element: EmailElement): Rgba =>
    resolveDownFromRoot(colorCache, element, BLACK, (current, inherited) => {
      const declared = get(current, 'color');
      if (declared !== undefined && declared !== 'inherit' && declared !== 'currentcolor') {
        const parsedColor = parseCssColor(declared);
        return parsedColor ? compositeOver(parsedColor, inherited) : inherited;
      }
      // Links do not inherit their colour: the user agent paints them blue unless the author says otherwise.
      if (declared === undefined && current.tag === 'a' && current.attrs.has('href')) return LINK_BLUE;
      return inherited;
    });

  const background = (element: EmailElement): ResolvedBackground | null =>
    resolveDownFromRoot<ResolvedBackground | null>(backgroundCache, element, { color: WHITE, from: null }, (current, below) => {
      const image = get(current, 'background-image');
      if (image && image !== 'none' && isImageValue(image)) return null;
      const declared = get(current, 'background-color');
      const own = declared ? parseCssColor(declared) : null;
      if (own && own.alpha >= 1) return { color: own, from: current };
      if (!below) return null;
      if (own && own.alpha > 0) return { color: compositeOver(own, below.color), from: current };
      return below;
    });

  return { get, hiddenReason, textColor, background, fontSizePx, isBold, inlineDeclarations };
}
