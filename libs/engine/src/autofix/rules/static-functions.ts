import { type Color, converter, formatHex, interpolateWithPremultipliedAlpha, toGamut } from 'culori';
import { parseColor } from '../../dark-mode/color-inversion';
import { readArguments } from '../../reports/context/css-functions';

/**
 * CSS functions computed to the static values a browser would compute, for clients that do not know
 * them: `calc()` over one unit, `color-mix()` and the CSS Color 4 functions as hex or `rgba()`.
 * Each returns the value with what it could compute replaced, and why it left a call alone.
 */
export interface StaticOutcome {
  value: string;
  /** Why a call was left as written (the first such call). */
  refused?: string;
}

type CallReplacer = (call: string, args: string[]) => string | { refused: string };

/**
 * Replaces each call of one of `names` (lower case, matched case-insensitively, not as the end of a longer
 * identifier) with what `replace` makes of it; a refused call stays as written.
 */
export function replaceFunctionCalls(value: string, names: readonly string[], replace: CallReplacer): StaticOutcome {
  const pattern = new RegExp(`(?<![\\w-])(?:${names.join('|')})\\(`, 'gi');
  let result = '';
  let from = 0;
  let refused: string | undefined;
  for (let match = pattern.exec(value); match; match = pattern.exec(value)) {
    const open = match.index + match[0].length - 1;
    const call = readArguments(value, open);
    if (!call) {
      refused ??= `${match[0]}…) is not closed`;
      break;
    }
    const text = value.slice(match.index, call.end);
    const replaced = replace(text, call.args);
    result += value.slice(from, match.index) + (typeof replaced === 'string' ? replaced : text);
    if (typeof replaced !== 'string') refused ??= replaced.refused;
    from = call.end;
    pattern.lastIndex = call.end;
  }
  return { value: result + value.slice(from), ...(refused ? { refused } : {}) };
}

// ---- calc() ---------------------------------------------------------------------------------------------

interface Quantity {
  amount: number;
  /** Lower-case unit, '' for a number, '%' for a percentage. */
  unit: string;
}

const CALC_TOKEN = /\s*(?:([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z]+|%)?|(calc\(|\()|(\))|([*/+-]))/iy;

class CalcParser {
  private readonly tokens: string[][] = [];
  private at = 0;
  failure?: string;

  constructor(expression: string) {
    CALC_TOKEN.lastIndex = 0;
    while (CALC_TOKEN.lastIndex < expression.length) {
      const start = CALC_TOKEN.lastIndex;
      const match = CALC_TOKEN.exec(expression);
      if (!match) {
        if (expression.slice(start).trim() === '') break;
        this.failure = `it holds "${expression.slice(start).trim().split(/\s/)[0]}", which is no number or length`;
        return;
      }
      this.tokens.push([...match].slice(1).map((part) => part ?? ''));
    }
  }

  /** The whole expression's value, or undefined (with `failure` set). */
  evaluate(): Quantity | undefined {
    if (this.failure) return undefined;
    const value = this.sum();
    if (value && this.at < this.tokens.length) this.failure = 'it is not an expression calc() reads';
    return this.failure ? undefined : value;
  }

  private sum(): Quantity | undefined {
    let left = this.product();
    while (left && (this.peek(4) === '+' || this.peek(4) === '-')) {
      const sign = this.tokens[this.at++][4] === '+' ? 1 : -1;
      const right = this.product();
      if (!right) return undefined;
      if (right.unit !== left.unit)
        return this.fail(`it mixes ${left.unit || 'numbers'} and ${right.unit || 'numbers'}: only the reader's layout knows the result`);
      left = { amount: left.amount + sign * right.amount, unit: left.unit };
    }
    return left;
  }

  private product(): Quantity | undefined {
    let left = this.factor();
    while (left && (this.peek(4) === '*' || this.peek(4) === '/')) {
      const divide = this.tokens[this.at++][4] === '/';
      const right = this.factor();
      if (!right) return undefined;
      if (divide) {
        if (right.unit !== '' || right.amount === 0) return this.fail('it divides by a length or by zero');
        left = { amount: left.amount / right.amount, unit: left.unit };
      } else {
        if (left.unit !== '' && right.unit !== '') return this.fail('it multiplies two lengths');
        left = { amount: left.amount * right.amount, unit: left.unit || right.unit };
      }
    }
    return left;
  }

  private factor(): Quantity | undefined {
    const token = this.tokens[this.at++];
    if (!token) return this.fail('it ends early');
    if (token[0] !== '') return { amount: Number.parseFloat(token[0]), unit: token[1].toLowerCase() };
    if (token[2] !== '') {
      const inner = this.sum();
      if (!inner) return undefined;
      if (this.tokens[this.at++]?.[3] !== ')') return this.fail('a parenthesis is not closed');
      return inner;
    }
    return this.fail('it is not an expression calc() reads');
  }

  private peek(group: number): string | undefined {
    return this.tokens[this.at]?.[group];
  }

  private fail(reason: string): undefined {
    this.failure ??= reason;
    return undefined;
  }
}

function formatNumber(amount: number): string {
  const rounded = Number(amount.toFixed(4));
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/** `calc(10px + 5px)` → `15px`, `calc(2 * 8px)` → `16px`; calc() over two units (`100% - 20px`) stays. */
export function resolveCalc(value: string): StaticOutcome {
  if (!/calc\(/i.test(value)) return { value };
  return replaceFunctionCalls(value, ['calc'], (call, args) => {
    if (args.length !== 1) return { refused: `${call} is not an expression calc() reads` };
    const parser = new CalcParser(args[0]);
    const result = parser.evaluate();
    if (!result) return { refused: `${call} stays: ${parser.failure}` };
    // A negative result would be clamped by the browser where the property takes none (padding, width).
    if (result.amount < 0) return { refused: `${call} stays: its result is negative, which the browser would clamp` };
    return `${formatNumber(result.amount)}${result.unit}`;
  });
}

// ---- colors ---------------------------------------------------------------------------------------------

const toRgb = converter('rgb');
const inSrgbGamut = toGamut('rgb', 'oklch');
const MIX_SPACES = new Set(['srgb', 'srgb-linear', 'lab', 'oklab', 'lch', 'oklch', 'hsl', 'hwb', 'xyz', 'xyz-d65', 'xyz-d50']);
const CULORI_MODE: Record<string, string> = {
  srgb: 'rgb',
  'srgb-linear': 'lrgb',
  lab: 'lab',
  oklab: 'oklab',
  lch: 'lch',
  oklch: 'oklch',
  hsl: 'hsl',
  hwb: 'hwb',
  xyz: 'xyz65',
  'xyz-d65': 'xyz65',
  'xyz-d50': 'xyz50',
};

function channel(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 255);
}

/** A color as sRGB hex, or `rgba()` with commas when it is translucent (mapped into sRGB first). */
export function formatStaticColor(color: Color): string {
  const rgb = toRgb(inSrgbGamut(color));
  const alpha = rgb.alpha ?? 1;
  if (alpha >= 1) return formatHex(rgb);
  return `rgba(${channel(rgb.r)}, ${channel(rgb.g)}, ${channel(rgb.b)}, ${formatNumber(Math.max(0, alpha))})`;
}

/** One `color-mix()` argument: a color and its optional percentage, in either order. */
function mixComponent(text: string): { color: Color; percent?: number } | undefined {
  const match = /^\s*(?:(\d+(?:\.\d+)?)%\s+)?(.+?)(?:\s+(\d+(?:\.\d+)?)%)?\s*$/s.exec(text);
  if (!match) return undefined;
  const color = parseColor(match[2]);
  if (!color) return undefined;
  const percent = match[1] ?? match[3];
  return { color, ...(percent === undefined ? {} : { percent: Number.parseFloat(percent) }) };
}

/** `color-mix(in srgb, red 40%, blue)` as CSS Color 5 computes it (premultiplied alpha, shorter hue). */
function mixColors(call: string, args: string[]): string | { refused: string } {
  const space = /^\s*in\s+([a-z0-9-]+)(?:\s+(shorter|longer|increasing|decreasing)\s+hue)?\s*$/i.exec(args[0] ?? '');
  if (!space || args.length !== 3 || !MIX_SPACES.has(space[1].toLowerCase())) return { refused: `${call} stays: not a color-mix() over a known color space` };
  if (space[2] && space[2].toLowerCase() !== 'shorter') return { refused: `${call} stays: only the shorter hue interpolation is computed here` };
  const first = mixComponent(args[1]);
  const second = mixComponent(args[2]);
  if (!first || !second) return { refused: `${call} stays: one of its colors is not a static color` };
  let p1 = first.percent;
  let p2 = second.percent;
  if (p1 === undefined && p2 === undefined) p1 = p2 = 50;
  else if (p1 === undefined) p1 = 100 - (p2 as number);
  else if (p2 === undefined) p2 = 100 - p1;
  const total = (p1 as number) + (p2 as number);
  if (total <= 0 || (p1 as number) < 0 || (p2 as number) < 0) return { refused: `${call} stays: its percentages are not valid` };
  const mixed = interpolateWithPremultipliedAlpha([first.color, second.color], CULORI_MODE[space[1].toLowerCase()] as 'rgb')((p2 as number) / total);
  // Percentages under 100% in all make the mix translucent (CSS Color 5, 2.1).
  if (total < 100) mixed.alpha = (mixed.alpha ?? 1) * (total / 100);
  return formatStaticColor(mixed);
}

const MODERN_COLOR_FUNCTIONS = ['oklch', 'oklab', 'lch', 'lab', 'hwb'];

/** `color-mix()`, `oklch()`, `oklab()`, `lch()`, `lab()` and `hwb()` written as hex or `rgba()`. */
export function resolveColorFunctions(value: string): StaticOutcome {
  if (!/(?:color-mix|lch|lab|hwb)\(/i.test(value)) return { value };
  // Inner colors first: a color-mix() of oklch() colors mixes the static values (the same colors).
  const modern = replaceFunctionCalls(value, MODERN_COLOR_FUNCTIONS, (call) => {
    const color = /var\(/i.test(call) ? undefined : parseColor(call);
    return color ? formatStaticColor(color) : { refused: `${call} stays: it is not a color with static values` };
  });
  const mixed = replaceFunctionCalls(modern.value, ['color-mix'], mixColors);
  const refused = modern.refused ?? mixed.refused;
  return { value: mixed.value, ...(refused ? { refused } : {}) };
}
