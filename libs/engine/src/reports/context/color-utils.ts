/** CSS colors through culori: parsing (cached), alpha compositing, WCAG contrast and perceptual distance. */
import { converter, differenceCiede2000, type Lab65, type Rgb } from 'culori';
import { parseColor } from '../../dark-mode/color-inversion';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  alpha: number;
  /** WCAG luminance, computed on first use (parsed colors are shared, so once per color). */
  luminance?: number;
}

const toRgb = converter('rgb');
const toLab65 = converter('lab65');
const ciede2000 = differenceCiede2000();
const MAX_CACHE = 5000;
const parseCache = new Map<string, Rgba | null>();

export const WHITE: Rgba = { r: 1, g: 1, b: 1, alpha: 1, luminance: undefined };
export const BLACK: Rgba = { r: 0, g: 0, b: 0, alpha: 1, luminance: undefined };
/** The user-agent color of an unvisited link. */
export const LINK_BLUE: Rgba = { r: 0, g: 0, b: 238 / 255, alpha: 1, luminance: undefined };

/** A CSS color value, or null for keywords that are not colors here (inherit, currentcolor, var()). */
export function parseCssColor(value: string): Rgba | null {
  // Callers mostly pass normalized values: try them as they are before building a key.
  const known = parseCache.get(value);
  if (known !== undefined) return known;
  const key = value.trim().toLowerCase();
  if (key.length === 0 || key.length > 100) return null;
  const cached = parseCache.get(key);
  if (cached !== undefined) return cached;
  let result: Rgba | null = null;
  // Legacy HTML color attributes are often written without '#'.
  const candidate = /^[0-9a-f]{6}$/.test(key) || /^[0-9a-f]{3}$/.test(key) ? `#${key}` : key;
  const parsed = candidate.includes('var(') ? undefined : parseColor(candidate);
  if (parsed) {
    const rgb = toRgb(parsed);
    if (rgb && Number.isFinite(rgb.r) && Number.isFinite(rgb.g) && Number.isFinite(rgb.b)) {
      result = {
        r: clamp01(rgb.r),
        g: clamp01(rgb.g),
        b: clamp01(rgb.b),
        alpha: rgb.alpha === undefined ? 1 : clamp01(rgb.alpha),
        luminance: undefined,
      };
    }
  }
  if (parseCache.size >= MAX_CACHE) parseCache.clear();
  parseCache.set(key, result);
  if (key !== value) parseCache.set(value, result);
  return result;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

function asCulori(color: Rgba): Rgb {
  return { mode: 'rgb', r: color.r, g: color.g, b: color.b, alpha: color.alpha };
}

/** `top` painted over an opaque `bottom`. */
export function compositeOver(top: Rgba, bottom: Rgba): Rgba {
  if (top.alpha >= 1) return top;
  const alpha = top.alpha;
  return {
    r: top.r * alpha + bottom.r * (1 - alpha),
    g: top.g * alpha + bottom.g * (1 - alpha),
    b: top.b * alpha + bottom.b * (1 - alpha),
    alpha: 1,
    luminance: undefined,
  };
}

function linearChannel(value: number): number {
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance (the sRGB formula culori's wcagLuminance uses), without allocating. */
export function luminanceOf(color: Rgba): number {
  color.luminance ??= 0.2126 * linearChannel(color.r) + 0.7152 * linearChannel(color.g) + 0.0722 * linearChannel(color.b);
  return color.luminance;
}

/** WCAG 2 contrast ratio of two opaque colors, exact: WCAG compares it unrounded (4.499:1 fails 4.5:1). */
export function contrastRatio(foreground: Rgba, background: Rgba): number {
  const a = luminanceOf(foreground);
  const b = luminanceOf(background);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** A failing ratio as shown: cut (not rounded) to two decimals, so that it never reads as the threshold it missed. */
export function displayedRatio(ratio: number): number {
  return Math.floor(ratio * 100) / 100;
}

export type Lab = Lab65;

export function toLab(color: Rgba): Lab {
  return toLab65(asCulori(color));
}

/** CIEDE2000 distance of colors already in Lab; about 2.3 is a just-noticeable difference. */
export function labDistance(a: Lab, b: Lab): number {
  return ciede2000(a, b);
}

/**
 * A lower bound of labDistance from lightness alone, far cheaper to compute: |ΔL| / S_L. CIEDE2000 is the
 * root of (ΔL/S_L)² + (ΔC/S_C)² + (ΔH/S_H)² + R_T·(ΔC/S_C)·(ΔH/S_H), and since |R_T| < 2 the last three
 * terms add up to at least (|ΔC/S_C| − |ΔH/S_H|)² ≥ 0.
 */
export function labDistanceLowerBound(a: Lab, b: Lab): number {
  const meanMinus50Squared = ((a.l + b.l) / 2 - 50) ** 2;
  const sl = 1 + (0.015 * meanMinus50Squared) / Math.sqrt(20 + meanMinus50Squared);
  return Math.abs(b.l - a.l) / sl;
}

/** CIEDE2000 distance; about 2.3 is a just-noticeable difference. */
export function colorDistance(a: Rgba, b: Rgba): number {
  return ciede2000(asCulori(a), asCulori(b));
}

const HEX_DIGITS = '0123456789abcdef';

function channelByte(channel: number): number {
  return Math.round(Math.min(1, Math.max(0, channel)) * 255);
}

function hexByte(channel: number): string {
  const byte = channelByte(channel);
  return HEX_DIGITS[byte >> 4] + HEX_DIGITS[byte & 15];
}

/** A number equal for two colors exactly when their toHex() strings are equal (no string to build). */
export function colorCode(color: Rgba): number {
  return ((channelByte(color.r) * 256 + channelByte(color.g)) * 256 + channelByte(color.b)) * 512 + (color.alpha < 1 ? channelByte(color.alpha) : 256);
}

/** #rrggbb, or #rrggbbaa when translucent (culori's formatHex/formatHex8 rounding). */
export function toHex(color: Rgba): string {
  const hex = `#${hexByte(color.r)}${hexByte(color.g)}${hexByte(color.b)}`;
  return color.alpha < 1 ? hex + hexByte(color.alpha) : hex;
}

/** Splits a CSS value into top-level tokens (spaces outside parentheses and quotes). */
export function splitCssValue(value: string): string[] {
  const tokens: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (quote) {
      current += char;
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if (char === '(') {
      depth++;
      current += char;
    } else if (char === ')') {
      depth = Math.max(0, depth - 1);
      current += char;
    } else if ((char === ' ' || char === '\t' || char === '\n' || char === ',') && depth === 0) {
      if (current) tokens.push(current);
      if (char === ',') tokens.push(',');
      current = '';
    } else current += char;
  }
  if (current) tokens.push(current);
  return tokens;
}

/** Whether a background value paints an image (url or gradient), whose colors cannot be known. */
export function isImageValue(value: string): boolean {
  return isLowerCaseImageValue(value.toLowerCase());
}

/** The same for a value already in lower case. */
export function isLowerCaseImageValue(value: string): boolean {
  return value.includes('url(') || value.includes('gradient(') || value.includes('image-set(');
}
