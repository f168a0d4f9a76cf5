/**
 * Whether a page's picture can depend on the colour scheme it is painted under: a static test of the
 * markup, sure in one direction only. `null` means the page paints the same picture under
 * `prefers-color-scheme: dark` as under light, so the light page can stand for the dark one (docs/visual.md,
 * "Cost"); a reason means it may not (often it would not: the test is conservative).
 *
 * What Chromium does with the dark scheme in this renderer (render-pool.ts): `emulateMediaFeatures`
 * sets `prefers-color-scheme: dark` and nothing else (no auto dark mode, JavaScript off, stylesheets,
 * fonts other than data: ones, frames and objects refused). The page's picture then changes only through
 * - a `prefers-color-scheme` media query: in CSS (`@media`, `@import … (…)`), in a `media` or `sizes`
 *   attribute (`<style>`, `<link>`, `<source>` in `<picture>`, `<img sizes>`, `<meta>`);
 * - a used colour scheme that is dark, which needs the `color-scheme` property or `<meta name=color-scheme>`
 *   (canvas, default colours, system colours, form controls), or `light-dark()` under it;
 * - an SVG image or document, whose own CSS can carry either (inline `<svg>`, a `.svg` or `data:image/svg+xml`
 *   image, or a remote image that turns out to be SVG: render-pool checks the bytes of every image it
 *   serves, `PaintedPage.rasterImagesOnly`);
 * - a nested document (`srcdoc`, a `data:` frame) carrying any of these.
 * The markup may spell these with upper case, HTML character references (`&#115;`, `&colon;`), CSS escapes
 * (`\73`, `\000073 `), percent-encoding (in URLs), in any nesting (`srcdoc` is markup inside an attribute).
 * So the test searches every decoding of the markup (each decoder applied to each string found, until
 * nothing new appears), lower-cased, for `color-scheme` (which `prefers-color-scheme` and
 * `supported-color-schemes` contain), `light-dark`, `svg`, and any `data:` URL that is not a raster image or
 * a font. Comments need no decoding: a CSS comment cannot sit inside a name, so a rule that applies has
 * its name whole. A match in visible text (an article about dark mode) only costs a page painted.
 */
export function schemeDependence(html: string): string | null {
  const seen = new Set<string>([html]);
  const pending = [html];
  while (pending.length > 0) {
    const text = pending.pop()!;
    const found = findIn(text.toLowerCase());
    if (found) return found;
    for (const decode of DECODERS) {
      const next = decode(text);
      if (seen.has(next)) continue;
      if (seen.size >= MAX_DECODINGS) return 'the markup is encoded too many ways to be sure';
      seen.add(next);
      pending.push(next);
    }
  }
  return null;
}

/** Distinct decodings looked at before giving up (an email has a handful: raw, entities decoded, URLs decoded). */
const MAX_DECODINGS = 64;

/** `data:` URLs whose content cannot carry a colour-scheme query: raster images and fonts. */
const SCHEME_FREE_DATA = /^\s*(image\/(png|jpe?g|gif|webp|bmp)|font\/[a-z0-9.+-]+|application\/(x-)?font-[a-z0-9.+-]+|application\/vnd\.ms-fontobject)\s*[;,]/;

function findIn(lower: string): string | null {
  if (lower.includes('color-scheme')) return 'the markup mentions `color-scheme` (a `prefers-color-scheme` query, the property or its meta)';
  if (lower.includes('light-dark')) return 'the markup uses `light-dark()`';
  if (lower.includes('svg')) return 'the markup has SVG (inline, or an SVG image), which can carry its own scheme queries';
  for (let at = lower.indexOf('data:'); at >= 0; at = lower.indexOf('data:', at + 5))
    if (!SCHEME_FREE_DATA.test(lower.slice(at + 5, at + 5 + 80))) return 'the markup has a `data:` URL that is not a raster image or a font';
  return null;
}

/**
 * HTML's named character references whose value is ASCII (the whole list, from the WHATWG table; every
 * other one decodes to a non-ASCII character, which no name above can contain). `amp`, `lt`, `gt` and
 * `quot` also decode without their semicolon, as browsers do.
 */
const ASCII_NAMED_REFERENCES: Record<string, string> = {
  AMP: '&',
  amp: '&',
  GT: '>',
  gt: '>',
  LT: '<',
  lt: '<',
  QUOT: '"',
  quot: '"',
  'AMP;': '&',
  'amp;': '&',
  'GT;': '>',
  'gt;': '>',
  'LT;': '<',
  'lt;': '<',
  'QUOT;': '"',
  'quot;': '"',
  'apos;': "'",
  'ast;': '*',
  'bsol;': '\\',
  'colon;': ':',
  'comma;': ',',
  'commat;': '@',
  'DiacriticalGrave;': '`',
  'dollar;': '$',
  'equals;': '=',
  'excl;': '!',
  'fjlig;': 'fj',
  'grave;': '`',
  'Hat;': '^',
  'lbrace;': '{',
  'lbrack;': '[',
  'lcub;': '{',
  'lowbar;': '_',
  'lpar;': '(',
  'lsqb;': '[',
  'midast;': '*',
  'NewLine;': '\n',
  'num;': '#',
  'percnt;': '%',
  'period;': '.',
  'plus;': '+',
  'quest;': '?',
  'rbrace;': '}',
  'rbrack;': ']',
  'rcub;': '}',
  'rpar;': ')',
  'rsqb;': ']',
  'semi;': ';',
  'sol;': '/',
  'Tab;': '\t',
  'UnderBar;': '_',
  'verbar;': '|',
  'vert;': '|',
  'VerticalLine;': '|',
};

const LEGACY_NAMES = ['AMP', 'amp', 'GT', 'gt', 'LT', 'lt', 'QUOT', 'quot'];

const codePoint = (value: number): string => (value > 0 && value <= 0x10ffff && (value < 0xd800 || value > 0xdfff) ? String.fromCodePoint(value) : '\ufffd');

/** HTML character references: numeric ones (with or without `;`) and the named ones that decode to ASCII. */
function decodeHtmlReferences(text: string): string {
  return text.replace(/&(?:#x([0-9a-f]+);?|#([0-9]+);?|([a-z][a-z0-9]*;?))/gi, (match: string, hex?: string, decimal?: string, name?: string) => {
    if (hex !== undefined) return codePoint(parseInt(hex, 16));
    if (decimal !== undefined) return codePoint(parseInt(decimal, 10));
    const named = ASCII_NAMED_REFERENCES[name!];
    if (named !== undefined) return named;
    // `&amp`, `&lt`, `&gt`, `&quot` need no semicolon: `&ampcolon;` is `&` and `colon;` in text.
    const legacy = LEGACY_NAMES.find((prefix) => name!.startsWith(prefix));
    return legacy ? ASCII_NAMED_REFERENCES[legacy] + name!.slice(legacy.length) : match;
  });
}

/** CSS escapes: `\` and 1-6 hex digits (one white space after them is part of it), `\` and any other character, `\` and a newline (dropped). */
function decodeCssEscapes(text: string): string {
  return text.replace(/\\(?:([0-9a-f]{1,6})(?:\r\n|[ \t\r\n\f])?|(\r\n|[\n\r\f])|([\s\S]))/gi, (_: string, hex?: string, newline?: string, other?: string) => {
    if (hex !== undefined) return codePoint(parseInt(hex, 16));
    if (newline !== undefined) return '';
    return other ?? '';
  });
}

/** Percent-encoding of ASCII bytes (URLs, `data:` URLs); others stay as they are. */
function decodePercent(text: string): string {
  return text.replace(/%([0-7][0-9a-f])/gi, (_: string, byte: string) => String.fromCharCode(parseInt(byte, 16)));
}

const DECODERS: ReadonlyArray<(text: string) => string> = [decodeHtmlReferences, decodeCssEscapes, decodePercent];

/**
 * Whether an image's bytes are a raster format (PNG, JPEG, GIF, WebP, BMP), which paints the same under
 * either scheme. Chromium paints SVG only from SVG bytes, which none of these signatures can start.
 */
export function isRasterImage(body: Buffer): boolean {
  if (body.length < 12) return false;
  if (body[0] === 0x89 && body.toString('latin1', 1, 4) === 'PNG') return true;
  if (body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return true;
  const head = body.toString('latin1', 0, 12);
  return head.startsWith('GIF8') || (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') || head.startsWith('BM');
}
