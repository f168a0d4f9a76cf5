/**
 * RFC 3492 Punycode encoding of one label, written here so the engine needs neither node:url nor
 * Node's deprecated built-in `punycode` module (which shadows the npm package of the same name).
 */
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_INT = 0x7fffffff;

function adapt(delta: number, numPoints: number, firstTime: boolean): number {
  let d = firstTime ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / numPoints);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digit(value: number): string {
  // 0-25 -> a-z, 26-35 -> 0-9
  return String.fromCharCode(value < 26 ? value + 97 : value + 22);
}

/** Encodes one Unicode label (without the `xn--` prefix). Throws RangeError on overflow. */
export function punycodeEncode(label: string): string {
  const codePoints = Array.from(label, (char) => char.codePointAt(0) as number);
  let output = codePoints
    .filter((cp) => cp < 0x80)
    .map((cp) => String.fromCharCode(cp))
    .join('');
  const basicLength = output.length;
  let handled = basicLength;
  if (basicLength > 0) output += '-';
  let n = INITIAL_N;
  let delta = 0;
  let bias = INITIAL_BIAS;
  while (handled < codePoints.length) {
    let next = MAX_INT;
    for (const cp of codePoints) if (cp >= n && cp < next) next = cp;
    if (next - n > Math.floor((MAX_INT - delta) / (handled + 1))) throw new RangeError('punycode overflow');
    delta += (next - n) * (handled + 1);
    n = next;
    for (const cp of codePoints) {
      if (cp < n && ++delta > MAX_INT) throw new RangeError('punycode overflow');
      if (cp !== n) continue;
      let q = delta;
      for (let k = BASE; ; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        output += digit(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      output += digit(q);
      bias = adapt(delta, handled + 1, handled === basicLength);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}

/** A label as it goes on the wire: ASCII stays, anything else becomes `xn--` + Punycode. */
export function labelToAscii(label: string): string {
  return /^[\x00-\x7f]*$/.test(label) ? label : `xn--${punycodeEncode(label)}`;
}
