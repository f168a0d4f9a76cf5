import { Color, Oklch, converter, formatHex, formatHex8, parse, wcagLuminance } from 'culori';

export type InversionMode = 'full' | 'partial';
export type ColourRole = 'background' | 'foreground';

const toOklch = converter('oklch');
const NOT_COLOURS = new Set(['transparent', 'none', 'inherit', 'initial', 'unset', 'currentcolor', 'auto', 'revert']);
// An unclosed url( or colour function runs to the end of the value, so a failed match never rescans
// (repeated unclosed openers would otherwise cost quadratic time).
const COLOUR_TOKEN = /url\([^)]*(?:\)|$)|#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([^)]*(?:\)|$)|\b[a-z]+\b/gi;

/**
 * culori's parse, for any text: culori 4 throws a TypeError on some malformed modern syntax
 * (`url(1px)`, `rgb(1px`), which must stay "not a colour" here, never an exception.
 */
export function parseColour(value: string): Color | undefined {
  try {
    return parse(value);
  } catch {
    return undefined;
  }
}

/** WCAG relative luminance of a CSS colour, or undefined when it is not one. */
export function relativeLuminance(value: string): number | undefined {
  const colour = NOT_COLOURS.has(value.trim().toLowerCase()) ? undefined : parseColour(value.trim());
  return colour ? wcagLuminance(colour) : undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * How a client's automatic dark mode recolours one colour. Lightness is inverted in OKLCH so hue and
 * chroma survive (a light blue panel becomes a dark blue one, as photographed in the clients):
 * - full: every colour flips (dark backgrounds turn light, light text turns dark);
 * - partial: only light backgrounds darken and dark text lightens; dark areas are left alone.
 */
function invertColour(value: string, mode: InversionMode, role: ColourRole): string | undefined {
  const parsed = parseColour(value);
  if (!parsed) return undefined;
  const colour = toOklch(parsed) as Oklch;
  const lightness = colour.l;
  let next: number | undefined;
  if (role === 'background') {
    if (mode === 'full') next = clamp(1 - lightness, 0.2, 0.92);
    else if (lightness > 0.8) next = clamp(1 - lightness, 0.22, 1);
  } else if (mode === 'full') next = clamp(1 - lightness, 0.3, 0.92);
  else if (lightness < 0.5) next = clamp(1 - lightness, 0, 0.9);
  if (next === undefined || Math.abs(next - lightness) < 0.005) return undefined;
  const inverted: Oklch = { ...colour, l: next, c: (colour.c ?? 0) * 0.9 };
  return (colour.alpha ?? 1) < 1 ? formatHex8(inverted) : formatHex(inverted);
}

/** Recolours every colour token of a CSS value (memoised: emails repeat the same few colours). */
export class ColourInverter {
  private readonly cache = new Map<string, string>();
  constructor(readonly mode: InversionMode) {}

  colour(value: string, role: ColourRole): string {
    const key = `${role}\u0000${value}`;
    let result = this.cache.get(key);
    if (result === undefined) {
      result = value.replace(COLOUR_TOKEN, (token) => {
        if (token.toLowerCase().startsWith('url(') || NOT_COLOURS.has(token.toLowerCase())) return token;
        return invertColour(token, this.mode, role) ?? token;
      });
      this.cache.set(key, result);
    }
    return result;
  }
}

const BACKGROUND_PROPERTIES = new Set(['background', 'background-color']);
const FOREGROUND_PROPERTIES = new Set([
  'color', 'border', 'border-color', 'border-top', 'border-right', 'border-bottom', 'border-left', 'border-top-color', 'border-right-color',
  'border-bottom-color', 'border-left-color', 'outline', 'outline-color', 'text-decoration-color', 'column-rule-color',
]);

export function colourRoleOf(property: string): ColourRole | undefined {
  if (BACKGROUND_PROPERTIES.has(property)) return 'background';
  if (FOREGROUND_PROPERTIES.has(property)) return 'foreground';
  return undefined;
}

/** Colour-bearing HTML attributes. */
export const COLOUR_ATTRIBUTES: Readonly<Record<string, ColourRole>> = { bgcolor: 'background', color: 'foreground', text: 'foreground', link: 'foreground', vlink: 'foreground', alink: 'foreground' };
