import { Color, Oklch, converter, formatHex, formatHex8, parse, wcagLuminance } from 'culori';

export type InversionMode = 'full' | 'partial' | 'removal';
export type ColorRole = 'background' | 'foreground';

const toOklch = converter('oklch');
const toRgb = converter('rgb');
const NOT_COLORS = new Set(['transparent', 'none', 'inherit', 'initial', 'unset', 'currentcolor', 'auto', 'revert']);
// An unclosed url( or color function runs to the end of the value, so a failed match never rescans
// (repeated unclosed openers would otherwise cost quadratic time).
export const COLOR_TOKEN = /url\([^)]*(?:\)|$)|#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([^)]*(?:\)|$)|\b[a-z]+\b/gi;

/**
 * culori's parse, for any text: culori 4 throws a TypeError on some malformed modern syntax
 * (`url(1px)`, `rgb(1px`), which must stay "not a color" here, never an exception.
 */
export function parseColor(value: string): Color | undefined {
  try {
    return parse(value);
  } catch {
    return undefined;
  }
}

/** WCAG relative luminance of a CSS color, or undefined when it is not one. */
export function relativeLuminance(value: string): number | undefined {
  const color = NOT_COLORS.has(value.trim().toLowerCase()) ? undefined : parseColor(value.trim());
  return color ? wcagLuminance(color) : undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * How a client's automatic dark mode recolors one color. Lightness is inverted in OKLCH so hue and
 * chroma survive (a light blue panel becomes a dark blue one, as photographed in the clients):
 * - full: every color flips (dark backgrounds turn light, light text turns dark);
 * - partial: only light backgrounds darken and dark text lightens; dark areas are left alone.
 */
function invertColor(value: string, mode: 'full' | 'partial', role: ColorRole): string | undefined {
  const parsed = parseColor(value);
  if (!parsed) return undefined;
  const color = toOklch(parsed) as Oklch;
  const lightness = color.l;
  let next: number | undefined;
  if (role === 'background') {
    if (mode === 'full') next = clamp(1 - lightness, 0.2, 0.92);
    else if (lightness > 0.8) next = clamp(1 - lightness, 0.22, 1);
  } else if (mode === 'full') next = clamp(1 - lightness, 0.3, 0.92);
  else if (lightness < 0.5) next = clamp(1 - lightness, 0, 0.9);
  if (next === undefined || Math.abs(next - lightness) < 0.005) return undefined;
  const inverted: Oklch = { ...color, l: next, c: (color.c ?? 0) * 0.9 };
  return (color.alpha ?? 1) < 1 ? formatHex8(inverted) : formatHex(inverted);
}

/**
 * Thunderbird's dark reader (comm-central DarkReader.mjs), facts restated: a color's brightness is the
 * weighted sum 0.2125 R + 0.7154 G + 0.0721 B over 0-255; a background brighter than 200, or too close to
 * its text (a ratio of (brighter + 0.05) / (darker + 0.05) under 3.5 on that scale), is removed, and so is a
 * text color of brightness 200 or less. What shows instead is the reader's page: #18181b under #eeeef0 text.
 */
export const DARK_READER = { threshold: 200, contrast: 3.5, page: '#18181b', text: '#eeeef0' } as const;

/** The dark reader's brightness of a CSS color (0-255), or undefined when it is not an opaque enough color (alpha 0.2 or less counts as none). */
export function readerBrightness(value: string): number | undefined {
  const trimmed = value.trim().toLowerCase();
  const color = NOT_COLORS.has(trimmed) ? undefined : parseColor(trimmed);
  if (!color) return undefined;
  const rgb = toRgb(color);
  if ((rgb.alpha ?? 1) <= 0.2) return undefined;
  return 255 * (0.2125 * clamp(rgb.r, 0, 1) + 0.7154 * clamp(rgb.g, 0, 1) + 0.0721 * clamp(rgb.b, 0, 1));
}

/** The dark reader's contrast between two brightness values. */
export function readerContrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** One value as the dark reader leaves it, seen alone: a removed color shows the reader's page or text color. */
function readerColor(value: string, role: ColorRole): string | undefined {
  const brightness = readerBrightness(value);
  if (brightness === undefined) return undefined;
  if (role === 'background') return brightness > DARK_READER.threshold ? DARK_READER.page : undefined;
  return brightness <= DARK_READER.threshold ? DARK_READER.text : undefined;
}

/** Recolors every color token of a CSS value (memoised: emails repeat the same few colors). */
export class ColorInverter {
  /** Per role, the answer for each value (two maps rather than a composed key: no key string per call). */
  private readonly cache: Record<ColorRole, Map<string, string>> = { background: new Map(), foreground: new Map() };
  constructor(readonly mode: InversionMode) {}

  color(value: string, role: ColorRole): string {
    const cache = this.cache[role];
    let result = cache.get(value);
    if (result === undefined) {
      result = value.replace(COLOR_TOKEN, (token) => {
        if (token.toLowerCase().startsWith('url(') || NOT_COLORS.has(token.toLowerCase())) return token;
        return (this.mode === 'removal' ? readerColor(token, role) : invertColor(token, this.mode, role)) ?? token;
      });
      cache.set(value, result);
    }
    return result;
  }
}

const BACKGROUND_PROPERTIES = new Set(['background', 'background-color']);
const FOREGROUND_PROPERTIES = new Set([
  'color',
  'border',
  'border-color',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-top-color',
  'border-right-color',
  'border-bottom-color',
  'border-left-color',
  'outline',
  'outline-color',
  'text-decoration-color',
  'column-rule-color',
]);

/** Each color property's role: one lookup per declaration (this runs for every declaration of every client's dark variant). */
const ROLE_OF_PROPERTY: ReadonlyMap<string, ColorRole> = new Map<string, ColorRole>([
  ...[...BACKGROUND_PROPERTIES].map((property): [string, ColorRole] => [property, 'background']),
  ...[...FOREGROUND_PROPERTIES].map((property): [string, ColorRole] => [property, 'foreground']),
]);

export function colorRoleOf(property: string): ColorRole | undefined {
  return ROLE_OF_PROPERTY.get(property);
}

/**
 * Color-bearing HTML attributes and their roles. A Map, not an object literal: an attribute named after an
 * Object.prototype member (`constructor`, `toString`) is no color attribute.
 */
export const COLOR_ATTRIBUTES: ReadonlyMap<string, ColorRole> = new Map<string, ColorRole>([
  ['bgcolor', 'background'],
  ['color', 'foreground'],
  ['text', 'foreground'],
  ['link', 'foreground'],
  ['vlink', 'foreground'],
  ['alink', 'foreground'],
]);
