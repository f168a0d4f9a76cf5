// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON list with no ES module build
const KNOWN: { all: string[] } = require('known-css-properties') as { all: string[] };

/** Standard (unprefixed) CSS property names from the maintained `known-css-properties` list. */
export const STANDARD_CSS_PROPERTIES: ReadonlySet<string> = new Set(KNOWN.all.filter((name) => !name.startsWith('-')));

/**
 * CSS 2.1 properties. Every email client understands them, so a missing caniemail entry for one of
 * them means "nobody tested it", not "support unknown". Taken from the CSS 2.1 property index.
 */
export const CSS21_PROPERTIES: ReadonlySet<string> = new Set([
  'azimuth', 'background', 'background-attachment', 'background-color', 'background-image', 'background-position', 'background-repeat',
  'border', 'border-bottom', 'border-bottom-color', 'border-bottom-style', 'border-bottom-width', 'border-collapse', 'border-color',
  'border-left', 'border-left-color', 'border-left-style', 'border-left-width', 'border-right', 'border-right-color', 'border-right-style',
  'border-right-width', 'border-spacing', 'border-style', 'border-top', 'border-top-color', 'border-top-style', 'border-top-width',
  'border-width', 'bottom', 'caption-side', 'clear', 'clip', 'color', 'content', 'counter-increment', 'counter-reset', 'cue', 'cue-after',
  'cue-before', 'cursor', 'direction', 'display', 'elevation', 'empty-cells', 'float', 'font', 'font-family', 'font-size', 'font-style',
  'font-variant', 'font-weight', 'height', 'left', 'letter-spacing', 'line-height', 'list-style', 'list-style-image', 'list-style-position',
  'list-style-type', 'margin', 'margin-bottom', 'margin-left', 'margin-right', 'margin-top', 'max-height', 'max-width', 'min-height',
  'min-width', 'orphans', 'outline', 'outline-color', 'outline-style', 'outline-width', 'overflow', 'padding', 'padding-bottom',
  'padding-left', 'padding-right', 'padding-top', 'page-break-after', 'page-break-before', 'page-break-inside', 'pause', 'pause-after',
  'pause-before', 'pitch', 'pitch-range', 'play-during', 'position', 'quotes', 'richness', 'right', 'speak', 'speak-header', 'speak-numeral',
  'speak-punctuation', 'speech-rate', 'stress', 'table-layout', 'text-align', 'text-decoration', 'text-indent', 'text-transform', 'top',
  'unicode-bidi', 'vertical-align', 'visibility', 'voice-family', 'volume', 'white-space', 'widows', 'width', 'word-spacing', 'z-index',
]);
