import { browserBase } from './base-url';
import { CANIEMAIL } from '../caniemail-data';
import type { ClientId } from '../email-client';
import { bodyToDiv } from './body-to-div';
import type { AdditionBehavior, ClientBehavior, Decl, Evidence, PrefixBehavior, RewriteBehavior, SanitizeBehavior } from './client-behavior';
import { NEGATIVE_LENGTH, SPACE_SEPARATED_RGB, UPPERCASE_IMPORTANT, hasTopLevelComma, mediaFeatures, removeTopLevelCommas } from './css-text';

/**
 * Behaviours added from the behaviour inventory (docs/clients.md, "Behaviour inventory"): the partial
 * behaviours caniemail keeps in its notes ("negative values are not supported", "`pre` is not supported",
 * "only `<time>` is supported") that the support layer alone cannot express, because the flag covers the
 * whole property while the client drops or rewrites only some values. Each is a rewrite of one value
 * family, with caniemail's note as evidence and a fixture of our own. They are kept apart from the
 * family models (appended by client-models.ts) so the inventory's additions stay in one place.
 */

const FEATURES = new Map(CANIEMAIL.data.map((feature) => [feature.slug, feature]));

/** caniemail's note `slug#n`, cited as evidence with the feature's last test date (read from the package). */
export function caniemailNote(noteKey: string, about: string): Evidence {
  const [slug, note] = noteKey.split('#');
  const feature = FEATURES.get(slug);
  const date = feature?.last_test_date && /^\d{4}-\d{2}-\d{2}$/.test(feature.last_test_date) ? feature.last_test_date : '2026-05';
  return { url: `https://www.caniemail.com/features/${slug}/`, title: `caniemail: ${feature?.title ?? slug} (note ${note}: ${about})`, date };
}

interface ValueLimit {
  id: string;
  /** caniemail note keys (`css-margin#1`) that document it. */
  notes: readonly string[];
  about: string;
  summary: string;
  label: string;
  properties: readonly string[];
  /** The declaration as the client keeps it: null drops it, a declaration replaces it, undefined leaves it. */
  apply(declaration: Decl): Decl | null | undefined;
  /** One inline declaration that shows it, and what the rewritten markup then holds or lacks. */
  sample: string;
  gone?: readonly string[];
  shows?: readonly string[];
  suggestion: string;
}

/** A rewrite behaviour from a value limit; its fixture uses the sample inline (a finding proves it fired). */
function valueLimit(limit: ValueLimit): RewriteBehavior {
  return {
    id: limit.id,
    kind: 'rewrite',
    severity: 'warning',
    label: limit.label,
    summary: limit.summary,
    evidence: limit.notes.map((note) => caniemailNote(note, limit.about)),
    properties: limit.properties,
    // CSS-wide keywords (inherit, initial …) are never the documented value.
    rewrite: (declaration) =>
      limit.properties.some((p) => matchesProperty(p, declaration.property)) && !CSS_WIDE_KEYWORD.test(declaration.value.trim())
        ? limit.apply(declaration)
        : undefined,
    suggestion: limit.suggestion,
    fixture: {
      html: `<div style="${limit.sample};color:#102030">x</div>`,
      expect: { transformIncludes: [...(limit.shows ?? []), '#102030'], transformExcludes: limit.gone ?? [], finding: { rule: limit.id } },
    },
  };
}

const CSS_WIDE_KEYWORD = /^(inherit|initial|unset|revert|revert-layer)$/i;

/**
 * `text` without its bracketed parts (`url(…)`, `[…]`), in one linear pass: an unclosed bracket drops the rest
 * (a regex such as /url\([^)]*\)/g rescans the tail from every start and is quadratic on hostile input).
 */
function withoutBracketed(text: string, open: string, close: string, replacement = ''): string {
  let out = '';
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start < 0) return out + text.slice(from);
    const end = text.indexOf(close, start + open.length);
    out += text.slice(from, start) + replacement;
    if (end < 0) return out;
    from = end + close.length;
  }
}

/** An rgb() with four comma-separated values (rgb(0, 0, 0, 0.5)), found in one linear pass. */
function rgbWithAlpha(value: string): boolean {
  let from = 0;
  for (;;) {
    const start = value.indexOf('rgb(', from);
    if (start < 0) return false;
    const end = value.indexOf(')', start);
    if (end < 0) return false;
    const inner = value.slice(start + 4, end);
    if (!inner.includes('(') && inner.split(',').length === 4) return true;
    from = end + 1;
  }
}

function matchesProperty(pattern: string, property: string): boolean {
  return pattern.endsWith('*') ? property.startsWith(pattern.slice(0, -1)) : pattern === property;
}

const lower = (value: string) => value.trim().toLowerCase();
const dropWhen =
  (test: (value: string) => boolean) =>
  (d: Decl): null | undefined =>
    test(lower(d.value)) ? null : undefined;
const keyword = (...words: string[]) => dropWhen((value) => words.includes(value));
const REM = /(^|[\s,(])[-+]?[\d.]+rem\b/;

function negativeMargin(id: string, who: string): RewriteBehavior {
  return valueLimit({
    id,
    notes: ['css-margin#1'],
    about: 'negative values',
    summary: `${who} drops margin declarations with a negative value.`,
    label: 'negative margin',
    properties: ['margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left'],
    apply: dropWhen((value) => NEGATIVE_LENGTH.test(value)),
    sample: 'margin:-13px 0 0 0',
    gone: ['-13px'],
    suggestion: 'Overlap content with a table layout or a background image instead of a negative margin.',
  });
}

function spaceSeparatedRgb(id: string, who: string, notes: readonly string[]): RewriteBehavior {
  return valueLimit({
    id,
    notes,
    about: 'space-separated rgb()',
    summary: `${who} drops a declaration whose color is written rgb()/rgba() with spaces instead of commas (rgb(0 128 0)).`,
    label: 'space-separated rgb()',
    properties: ['color', 'background', 'background-color', 'border', 'border-*', 'outline', 'outline-color', 'text-decoration-color'],
    apply: dropWhen((value) => SPACE_SEPARATED_RGB.test(value)),
    sample: 'background-color:rgb(1 2 3)',
    gone: ['rgb(1 2 3)'],
    suggestion: 'Write colors as hex or comma-separated rgb(0, 128, 0).',
  });
}

function negativeTextIndent(id: string, who: string): RewriteBehavior {
  return valueLimit({
    id,
    notes: ['css-text-indent#1'],
    about: 'negative values',
    summary: `${who} drops a negative text-indent.`,
    label: 'negative text-indent',
    properties: ['text-indent'],
    apply: dropWhen((value) => NEGATIVE_LENGTH.test(value)),
    sample: 'text-indent:-17px',
    gone: ['-17px'],
    suggestion: 'Hide preheader text with display:none, max-height:0 and overflow:hidden instead of a negative indent.',
  });
}

function logicalAlign(id: string, who: string, notes: readonly string[], values: readonly string[]): RewriteBehavior {
  return valueLimit({
    id,
    notes,
    about: `${values.join(', ')}`,
    summary: `${who} ignores text-align: ${values.join(' / ')}.`,
    label: `text-align: ${values.join('/')}`,
    properties: ['text-align'],
    apply: keyword(...values),
    sample: `text-align:${values[0]}`,
    gone: [`text-align:${values[0]}`, `text-align: ${values[0]}`],
    suggestion: 'Use left, right or center (with dir on the element for right-to-left text).',
  });
}

function logicalFloat(id: string, who: string, notes: readonly string[], properties: readonly string[]): RewriteBehavior {
  return valueLimit({
    id,
    notes,
    about: 'inline-start and inline-end',
    summary: `${who} ignores the logical values inline-start and inline-end of ${properties.join(' and ')}.`,
    label: `${properties[0]}: inline-start/inline-end`,
    properties,
    apply: keyword('inline-start', 'inline-end'),
    sample: `${properties[0]}:inline-start`,
    gone: ['inline-start'],
    suggestion: 'Use left or right.',
  });
}

function remFontSize(id: string, who: string): RewriteBehavior {
  return valueLimit({
    id,
    notes: ['css-font-size#1'],
    about: 'rem values',
    summary: `${who} ignores font-size in rem.`,
    label: 'font-size in rem',
    properties: ['font-size'],
    apply: dropWhen((value) => REM.test(value)),
    sample: 'font-size:1.3rem',
    gone: ['1.3rem'],
    suggestion: 'Give font sizes in px.',
  });
}

function overflowLogical(id: string, who: string): RewriteBehavior {
  return valueLimit({
    id,
    notes: ['css-overflow#4'],
    about: 'overflow-block and overflow-inline',
    summary: `${who} ignores overflow-block and overflow-inline.`,
    label: 'overflow-block/overflow-inline',
    properties: ['overflow-block', 'overflow-inline'],
    apply: () => null,
    sample: 'overflow-inline:hidden',
    gone: ['overflow-inline'],
    suggestion: 'Use overflow, overflow-x or overflow-y.',
  });
}

function positionValues(id: string, who: string, notes: readonly string[], values: readonly string[]): RewriteBehavior {
  return valueLimit({
    id,
    notes,
    about: `position: ${values.join(', ')}`,
    summary: `${who} ignores position: ${values.join(', ')}.`,
    label: `position: ${values.join('/')}`,
    properties: ['position'],
    apply: keyword(...values),
    sample: `position:${values[0]}`,
    gone: [`position:${values[0]}`, `position: ${values[0]}`],
    suggestion: 'Lay the email out with tables and normal flow; keep positioning as an enhancement.',
  });
}

function whiteSpacePre(id: string, who: string): RewriteBehavior {
  return valueLimit({
    id,
    notes: ['css-white-space#2'],
    about: '`pre`',
    summary: `${who} ignores white-space: pre.`,
    label: 'white-space: pre',
    properties: ['white-space'],
    apply: keyword('pre'),
    sample: 'white-space:pre',
    gone: ['white-space:pre', 'white-space: pre'],
    suggestion: 'Use white-space: pre-wrap or nowrap, or a <pre> element.',
  });
}

function listStyleImage(id: string, who: string, notes: readonly string[], whole: boolean): RewriteBehavior {
  return valueLimit({
    id,
    notes,
    about: 'list-style-image values',
    summary: whole
      ? `${who} removes a whole list-style declaration that holds an image (url()).`
      : `${who} removes the image (url()) from a list-style declaration and keeps the rest.`,
    label: 'list-style with an image',
    properties: ['list-style'],
    apply: (d) => {
      if (!/url\(/i.test(d.value)) return undefined;
      if (whole) return null;
      const rest = withoutBracketed(d.value.replace(/URL\(/g, 'url('), 'url(', ')').replace(/\s+/g, ' ').trim();
      return rest ? { ...d, value: rest } : null;
    },
    sample: 'list-style:square url(https://example.com/dot.png)',
    gone: ['dot.png'],
    suggestion: 'Draw custom bullets with a table and an <img>, not list-style images.',
  });
}

function reversedList(id: string): RewriteBehavior {
  return {
    id,
    kind: 'rewrite',
    severity: 'info',
    label: 'reversed on <ol>',
    summary: 'The client ignores the reversed attribute of <ol>: the list counts up.',
    evidence: [caniemailNote('html-lists#1', 'reversed')],
    dropsAttributesOn: ['ol'],
    dropsAttributes: (element) => (element.attrs.some((a) => a.name === 'reversed') ? ['reversed'] : []),
    suggestion: 'Write the numbers in the text, or give each <li> its value.',
    fixture: { html: '<ol reversed class="count"><li>a</li><li>b</li></ol>', expect: { transformExcludes: ['reversed'], finding: { rule: id } } },
  };
}

// ----- Selector limits: selectors the client drops from its <style> (composed after its prefix, client-rules.ts) -----

/** The selectors of a list, split at top-level commas (not inside parentheses or brackets). */
function selectorList(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  return parts;
}

/** `text` with the contents of (…) and […] replaced by `_`, same length, in one linear pass (unclosed: to the end). */
function masked(text: string): string {
  let out = '';
  let depth = 0;
  for (const ch of text) {
    if (depth > 0 && (ch === ')' || ch === ']')) depth--;
    out += depth > 0 ? '_' : ch;
    if (ch === '(' || ch === '[') depth++;
  }
  return out;
}

/** The compound selectors of one complex selector (split at combinators outside brackets), as written. */
function compounds(selector: string): string[] {
  return [...masked(selector).matchAll(/[^\s>+~]+/g)].map((m) => selector.slice(m.index, m.index + m[0].length));
}

/**
 * A prefix behaviour that only drops selectors: each selector of a list for which `drops` holds is removed;
 * a rule left with none is removed. Its fixture shows a dropped rule and a kept one.
 */
/** Entries a selector limit remembers before it starts over (a few emails' worth of distinct selectors). */
const SELECTOR_MEMO_LIMIT = 4096;

export function selectorLimit(limit: {
  id: string;
  notes: readonly string[];
  about: string;
  summary: string;
  drops(selector: string): boolean;
  html: string;
  gone: readonly string[];
  kept: readonly string[];
}): PrefixBehavior {
  const memo = new Map<string, string | null>();
  return {
    id: limit.id,
    kind: 'prefix',
    summary: limit.summary,
    evidence: limit.notes.map((note) => caniemailNote(note, limit.about)),
    rewriteSelector: (selector) => {
      // The answer depends on the selector text alone; emails repeat the same selectors (and every client
      // of a family asks again), so it is kept, in a bounded memo.
      const known = memo.get(selector);
      if (known !== undefined) return known;
      const list = selectorList(selector);
      const kept = list.filter((s) => !limit.drops(s.trim()));
      const result = kept.length === list.length ? selector : kept.length > 0 ? kept.join(',') : null;
      if (memo.size >= SELECTOR_MEMO_LIMIT) memo.clear();
      memo.set(selector, result);
      return result;
    },
    fixture: { html: limit.html, expect: { transformExcludes: limit.gone, transformIncludes: limit.kept } },
  };
}

/** `:hover`, `::before`: the pseudo-classes and pseudo-elements of one compound, lower-case, without colons or arguments. */
function pseudosOf(compound: string): string[] {
  return [...masked(compound).matchAll(/::?([-\w]+)/g)].map((m) => m[1].toLowerCase());
}

/** The part of a compound before its first pseudo, with attribute selectors removed (`td` of `td[title]:hover`). */
function headOf(compound: string): string {
  return masked(compound)
    .split(':')[0]
    .replace(/\[_*\]?/g, '');
}

/** Outlook: a listed pseudo-class or pseudo-element works after a type selector only (`a:hover`, not `.btn:hover`). */
function pseudoOnTypeOnly(id: string, who: string, pseudos: readonly string[], notes: readonly string[]): PrefixBehavior {
  const listed = new Set(pseudos);
  return selectorLimit({
    id,
    notes,
    about: 'only on type selectors',
    summary: `${who} keeps ${pseudos.map((p) => `:${p}`).join(', ')} only after a type selector (a:hover); a rule with one after a class, an id or nothing (.btn:hover) is dropped.`,
    drops: (selector) =>
      compounds(selector).some((compound) => {
        if (!pseudosOf(compound).some((p) => listed.has(p))) return false;
        return !/^[a-z][a-z0-9]*$/i.test(headOf(compound));
      }),
    html: `<html><head><style>td{color:#ff0000}#cta:${pseudos[0]}{color:#00ff00}</style></head><body><table><tr><td><a id="cta" href="https://example.com">x</a></td></tr></table></body></html>`,
    gone: ['#00ff00'],
    kept: ['#ff0000'],
  });
}

/** Attribute selectors of a selector: name and operator ('' for a bare [attr]), with the compound they sit in. */
export function attributeSelectors(selector: string): Array<{ name: string; operator: string; compound: string }> {
  const found: Array<{ name: string; operator: string; compound: string }> = [];
  for (const compound of compounds(selector)) {
    let from = 0;
    for (;;) {
      const start = compound.indexOf('[', from);
      if (start < 0) break;
      const end = compound.indexOf(']', start);
      const inner = compound.slice(start + 1, end < 0 ? undefined : end);
      const match = /^\s*([-\w]+)\s*([~|^$*]?=)?/.exec(inner);
      if (match) found.push({ name: match[1].toLowerCase(), operator: match[2] ?? '', compound });
      if (end < 0) break;
      from = end + 1;
    }
  }
  return found;
}

const outlookAttributeLimits = selectorLimit({
  id: 'outlook-attribute-selector-limits',
  notes: ['css-selector-attribute#1', 'css-selector-attribute#2'],
  about: 'attribute selector syntaxes',
  summary: 'Outlook drops a selector that chains an attribute selector to a class (.a[title]) or uses the ^=, $= or *= operators.',
  drops: (selector) => attributeSelectors(selector).some(({ operator, compound }) => ['^=', '$=', '*='].includes(operator) || /\.[-\w]/.test(masked(compound))),
  html: '<html><head><style>td{color:#ff0000}[href^="https"]{color:#00ff00}</style></head><body><table><tr><td><a href="https://example.com">x</a></td></tr></table></body></html>',
  gone: ['#00ff00'],
  kept: ['#ff0000'],
});
const yahooAttributeLimits = selectorLimit({
  id: 'yahoo-attribute-selector-limits',
  notes: ['css-selector-attribute#4'],
  about: '[attr=value] only',
  summary: 'Yahoo keeps attribute selectors of the form [attr=value] only; a selector with another form ([attr], ~=, ^= …) is dropped.',
  drops: (selector) => attributeSelectors(selector).some(({ operator }) => operator !== '='),
  html: '<html><head><style>td[align=center]{color:#ff0000}td[title]{color:#00ff00}</style></head><body><table><tr><td align="center" title="t">x</td></tr></table></body></html>',
  gone: ['#00ff00'],
  kept: ['#ff0000'],
});
const OUTLOOK_PSEUDOS = [
  'hover',
  'active',
  'focus',
  'visited',
  'target',
  'checked',
  'focus-visible',
  'first-child',
  'last-child',
  'only-child',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'before',
  'after',
  'first-letter',
  'first-line',
];
const OUTLOOK_PSEUDO_NOTES = [
  'css-pseudo-class-hover#2',
  'css-pseudo-class-active#1',
  'css-pseudo-class-focus#1',
  'css-pseudo-class-visited#1',
  'css-pseudo-class-target#1',
  'css-pseudo-class-checked#1',
  'css-pseudo-class-focus-visible#1',
  'css-pseudo-class-first-child#1',
  'css-pseudo-class-last-child#1',
  'css-pseudo-class-only-child#1',
  'css-pseudo-class-first-of-type#1',
  'css-pseudo-class-last-of-type#1',
  'css-pseudo-class-only-of-type#1',
  'css-pseudo-element-before#3',
  'css-pseudo-element-after#3',
  'css-pseudo-element-first-letter#2',
  'css-pseudo-element-first-line#2',
];
const owaPseudoTypeOnly = pseudoOnTypeOnly('outlook-pseudo-type-selectors-only', 'Outlook', OUTLOOK_PSEUDOS, OUTLOOK_PSEUDO_NOTES);
const outlookMacPseudoTypeOnly = pseudoOnTypeOnly(
  'outlook-pseudo-type-selectors-only',
  'Outlook for Mac',
  [...OUTLOOK_PSEUDOS, 'focus-within'],
  [...OUTLOOK_PSEUDO_NOTES, 'css-pseudo-class-focus-within#1'],
);
const outlookIosPseudoTypeOnly = pseudoOnTypeOnly(
  'outlook-pseudo-type-selectors-only',
  'Outlook for iOS',
  ['checked', 'before', 'after', 'first-letter', 'first-line'],
  [
    'css-pseudo-class-checked#1',
    'css-pseudo-element-before#3',
    'css-pseudo-element-after#3',
    'css-pseudo-element-first-letter#2',
    'css-pseudo-element-first-line#2',
  ],
);
const outlookAndroidPseudoTypeOnly = pseudoOnTypeOnly(
  'outlook-pseudo-type-selectors-only',
  'Outlook for Android',
  ['checked', 'focus-visible', 'focus-within'],
  ['css-pseudo-class-checked#1', 'css-pseudo-class-focus-visible#1', 'css-pseudo-class-focus-within#1'],
);

// ----- Structural: <body> to <div>, <base> removed, Gmail's <u> for media and semantic tags -----

const owaBodyToDiv = bodyToDiv('outlook-body-to-div', 'Outlook', [caniemailNote('html-body#1', 'replaced by a <div>')]);
const heyBodyToDiv = bodyToDiv('hey-body-to-div', 'HEY', [caniemailNote('html-body#1', 'replaced by a <div>')]);

function baseRemoved(id: string, who: string): SanitizeBehavior {
  return {
    id,
    kind: 'sanitize',
    severity: 'info',
    removesElements: new Set(['base']),
    // caniemail's note: the element goes, but relative URLs are first written absolute against it.
    resolvesUrlsAgainst: browserBase,
    summary: `${who} removes <base> after writing relative links and images absolute against it.`,
    evidence: [caniemailNote('html-base#1', 'removed')],
    suggestion: 'Write absolute URLs.',
    fixture: {
      html: '<html><head><base href="https://example.com/"></head><body><a href="page">x</a></body></html>',
      expect: { transformIncludes: ['href="https://example.com/page"'], transformExcludes: ['<base'] },
    },
  };
}

const gmailUTags: SanitizeBehavior = {
  id: 'gmail-media-and-semantic-tags-replaced',
  kind: 'sanitize',
  severity: 'warning',
  summary:
    'Gmail replaces <picture>, <video>, <details>, <summary>, <main> and <nav> with empty <u> elements (their content stays) and <source>/<track> likewise: the fallback <img> inside shows, the media and the disclosure never do.',
  evidence: [
    caniemailNote('html-picture#1', 'replaced by <u>'),
    caniemailNote('html-video#2', 'replaced by <u>'),
    caniemailNote('html-semantics#2', 'replaced by <u>'),
  ],
  unwrapsElements: new Set(['picture', 'video', 'details', 'summary', 'main', 'nav']),
  removesElements: new Set(['source', 'track']),
  suggestion: 'Give <picture> and <video> an <img> fallback that works alone; do not rely on <details> in Gmail.',
  fixture: {
    html: '<picture><source srcset="https://example.com/a.webp"><img src="https://example.com/a.png" alt="A"></picture>',
    expect: { transformExcludes: ['<picture', '<source', 'a.webp'], transformIncludes: ['a.png'] },
  },
};

// ----- Outlook.com, the new Outlook for Windows and the Outlook apps (caniemail notes) -----

const OWA = 'Outlook.com';
const owaNegativeMargin = negativeMargin('owa-negative-margin', OWA);
const outlookAppsNegativeMargin = negativeMargin('outlook-apps-negative-margin', 'The Outlook app');
const owaOverflowLogical = overflowLogical('owa-overflow-logical', OWA);
const outlookAppsOverflowLogical = overflowLogical('outlook-apps-overflow-logical', 'The Outlook app');
const owaPosition = positionValues('owa-position-values', 'Outlook (web, Mac and Android)', ['css-position#2'], ['relative', 'absolute', 'fixed']);
const outlookAppsWhiteSpacePre = whiteSpacePre('outlook-apps-white-space-pre', 'The Outlook app for iOS and Android');
const outlookAndroidTextAlign = logicalAlign('outlook-android-text-align-match-parent', 'Outlook for Android', ['css-text-align#3'], ['match-parent']);
const outlookAndroidClear = logicalFloat('outlook-android-clear-logical', 'Outlook for Android', ['css-clear#1'], ['clear']);
const outlookMacListStyle = listStyleImage('outlook-macos-list-style-image', 'Outlook for Mac', ['css-list-style#3'], false);
const outlookReversed = reversedList('outlook-ol-reversed-ignored');
const outlookIntrinsicSize = valueLimit({
  id: 'outlook-apps-max-content',
  notes: ['css-intrinsic-size#1'],
  about: 'min-content and fit-content only',
  summary: 'The Outlook apps for iOS and Android ignore max-content sizes (min-content and fit-content work).',
  label: 'max-content size',
  properties: ['width', 'height', 'min-width', 'max-width', 'min-height', 'max-height'],
  apply: keyword('max-content'),
  sample: 'width:max-content',
  gone: ['max-content'],
  suggestion: 'Size with fit-content or a fixed width.',
});
const owaMarquee: RewriteBehavior = {
  id: 'outlook-marquee-attributes',
  kind: 'rewrite',
  severity: 'info',
  label: 'behavior/direction on <marquee>',
  summary: 'Outlook (web, Windows and Mac) removes the behavior and direction attributes of <marquee>.',
  evidence: [caniemailNote('html-marquee#3', 'behavior and direction')],
  dropsAttributesOn: ['marquee'],
  dropsAttributes: (element) => element.attrs.filter((a) => a.name === 'behavior' || a.name === 'direction').map((a) => a.name),
  suggestion: 'Do not rely on <marquee> attributes.',
  fixture: { html: '<marquee direction="up">x</marquee>', expect: { transformExcludes: ['direction='], finding: { rule: 'outlook-marquee-attributes' } } },
};

// ----- Outlook on Windows (the Word engine) -----

const WORD = 'The Word engine';
const wordNegativeMargin = negativeMargin('word-negative-margin', WORD);
const wordRgb = spaceSeparatedRgb('word-space-separated-rgb', WORD, ['css-rgb#1']);
const wordRgbAlpha = valueLimit({
  id: 'word-rgb-alpha',
  notes: ['css-rgb#2'],
  about: 'alpha in rgb()',
  summary: 'The Word engine drops a color written rgb() with a fourth (alpha) value.',
  label: 'rgb() with alpha',
  properties: ['color', 'background', 'background-color', 'border', 'border-*'],
  apply: dropWhen(rgbWithAlpha),
  sample: 'background-color:rgb(1, 2, 3, 0.5)',
  gone: ['0.5)'],
  suggestion: 'Write the color as hex; Word has no transparency.',
});
const wordTextAlign = logicalAlign('word-text-align-logical', WORD, ['css-text-align#1', 'css-text-align#3'], ['start', 'end', 'match-parent']);
const wordRemFontSize = remFontSize('word-font-size-rem', WORD);
const wordFontWeight = valueLimit({
  id: 'word-font-weight-numbers',
  notes: ['css-font-weight#2'],
  about: 'number values',
  summary: 'The Word engine reads a numeric font-weight as normal below 600 and as bold from 600.',
  label: 'numeric font-weight',
  properties: ['font-weight'],
  apply: (d) => {
    const weight = Number(d.value.trim());
    if (!/^\d+$/.test(d.value.trim()) || weight === 400 || weight === 700) return undefined;
    return { ...d, value: weight >= 600 ? 'bold' : 'normal' };
  },
  sample: 'font-weight:650',
  shows: ['font-weight: bold'],
  gone: ['650'],
  suggestion: 'Use normal or bold: Word has two weights.',
});
const wordTextDecoration = valueLimit({
  id: 'word-text-decoration-single',
  notes: ['css-text-decoration#2', 'css-text-decoration#3'],
  about: 'several values, overline',
  summary: 'The Word engine ignores text-decoration with several lines or overline.',
  label: 'text-decoration: overline or several lines',
  properties: ['text-decoration', 'text-decoration-line'],
  apply: dropWhen((value) => /\boverline\b/.test(value) || value.split(/\s+/).filter((w) => ['underline', 'line-through', 'overline'].includes(w)).length > 1),
  sample: 'text-decoration:underline overline',
  gone: ['overline'],
  suggestion: 'Use underline or line-through alone.',
});
const wordTextTransform = valueLimit({
  id: 'word-text-transform-lowercase',
  notes: ['css-text-transform#1'],
  about: 'lowercase',
  summary: 'The Word engine ignores text-transform: lowercase.',
  label: 'text-transform: lowercase',
  properties: ['text-transform'],
  apply: keyword('lowercase'),
  sample: 'text-transform:lowercase',
  gone: ['lowercase'],
  suggestion: 'Write the text in lowercase.',
});
const wordTextJustify = valueLimit({
  id: 'word-text-justify',
  notes: ['css-text-justify#3'],
  about: 'inter-character only',
  summary: 'The Word engine strips text-justify unless its value is inter-character.',
  label: 'text-justify',
  properties: ['text-justify'],
  apply: dropWhen((value) => value !== 'inter-character'),
  sample: 'text-justify:inter-word',
  gone: ['inter-word'],
  suggestion: 'Do not rely on text-justify.',
});
const wordReversed = reversedList('word-ol-reversed-ignored');
const wordTitleRemoved: RewriteBehavior = {
  id: 'word-title-removed',
  kind: 'rewrite',
  severity: 'info',
  label: 'title on <dfn>/<acronym>',
  summary: 'The Word engine removes the title attribute of <dfn> and <acronym> (the element stays).',
  evidence: [caniemailNote('html-dfn#1', 'title removed'), caniemailNote('html-acronym#1', 'title removed')],
  dropsAttributesOn: ['dfn', 'acronym'],
  dropsAttributes: (element) => (element.attrs.some((a) => a.name === 'title') ? ['title'] : []),
  suggestion: 'Spell the definition out in the text.',
  fixture: { html: '<p><dfn title="Hypertext">HTML</dfn></p>', expect: { transformExcludes: ['Hypertext'], finding: { rule: 'word-title-removed' } } },
};

// ----- Gmail -----

const GMAIL = 'Gmail';
const gmailTextIndent = negativeTextIndent('gmail-negative-text-indent', GMAIL);
const gmailOverflowLogical = overflowLogical('gmail-overflow-logical', GMAIL);
const gmailListStyle = listStyleImage('gmail-list-style-image', GMAIL, ['css-list-style#1'], true);
const gmailReversed = reversedList('gmail-ol-reversed-ignored');
const gmailCustomProperties = valueLimit({
  id: 'gmail-custom-properties-removed',
  notes: ['css-variables#1'],
  about: 'var() kept, declarations removed',
  summary: 'Gmail removes custom property declarations (--name: value); var() stays and falls back.',
  label: 'custom property',
  properties: ['--*'],
  apply: (d) => (d.property.startsWith('--') ? null : undefined),
  sample: '--brand:#ff0000',
  gone: ['--brand'],
  suggestion: 'Resolve custom properties to static values before sending.',
});
const gmailGap = valueLimit(gapLimit('gmail-gap-column-only', 'Gmail'));
const gmailBackgroundPositions = valueLimit({
  id: 'gmail-background-position-commas',
  notes: ['css-background-position#1'],
  about: 'several values, comma removed',
  summary: 'Gmail deletes the commas between several background-position values, which leaves one invalid value.',
  label: 'several background positions',
  properties: ['background-position'],
  apply: (d) => (hasTopLevelComma(d.value) ? { ...d, value: removeTopLevelCommas(d.value) } : undefined),
  sample: 'background-position:left top, right bottom',
  gone: ['top, right'],
  suggestion: 'Use one background layer in Gmail.',
});
const gmailAppsWhiteSpacePre = whiteSpacePre('gmail-apps-white-space-pre', 'Gmail for iOS and Android');
const gmailAndroidTextAlign = logicalAlign('gmail-android-text-align-match-parent', 'Gmail for Android', ['css-text-align#3'], ['match-parent']);
const gmailAndroidClear = logicalFloat('gmail-android-clear-logical', 'Gmail for Android', ['css-clear#1'], ['clear']);
const gmailAppsFloat = logicalFloat('gmail-apps-float-logical', 'Gmail for iOS and Android', ['css-float#2'], ['float']);
const owaGap = valueLimit(gapLimit('owa-gap-column-only', 'Outlook'));

function gapLimit(id: string, who: string): ValueLimit {
  return {
    id,
    notes: ['css-gap#1'],
    about: 'column-gap only',
    summary: `${who} keeps column-gap but ignores gap and row-gap.`,
    label: 'gap / row-gap',
    properties: ['gap', 'row-gap'],
    apply: () => null,
    sample: 'gap:11px',
    gone: ['11px'],
    suggestion: 'Space flex items with margins or padding (column-gap works).',
  };
}

// ----- Yahoo Mail and AOL -----

const YAHOO = 'Yahoo';
const yahooNegativeMargin = negativeMargin('yahoo-negative-margin', YAHOO);
const yahooRgb = spaceSeparatedRgb('yahoo-space-separated-rgb', YAHOO, ['css-rgb#1', 'css-rgba#1']);
const yahooTextIndent = negativeTextIndent('yahoo-negative-text-indent', YAHOO);
const yahooTextAlign = logicalAlign('yahoo-text-align-logical', YAHOO, ['css-text-align#1', 'css-text-align#3'], ['start', 'end', 'match-parent']);
const yahooClearFloat = logicalFloat('yahoo-float-clear-logical', YAHOO, ['css-clear#1', 'css-float#2'], ['float', 'clear']);
const yahooRemFontSize = remFontSize('yahoo-font-size-rem', YAHOO);
const yahooOverflowLogical = overflowLogical('yahoo-overflow-logical', YAHOO);
const yahooPosition = positionValues('yahoo-position-values', YAHOO, ['css-position#3'], ['absolute', 'sticky', 'fixed']);
const yahooAppsWhiteSpacePre = whiteSpacePre('yahoo-apps-white-space-pre', 'The Yahoo Mail apps');
const yahooListStyle = listStyleImage('yahoo-list-style-image', YAHOO, ['css-list-style#3'], false);
const yahooReversed = reversedList('yahoo-ol-reversed-ignored');
const yahooDisplay = valueLimit({
  id: 'yahoo-display-values',
  notes: ['css-display#6', 'css-display-flex#2'],
  about: 'flow-root, inline-flex, inline-grid, contents, revert',
  summary: 'Yahoo removes display: flow-root, inline-flex, inline-grid, contents, revert and the two-value inline flow.',
  label: 'display value',
  properties: ['display'],
  apply: keyword('flow-root', 'inline-flex', 'inline-grid', 'inline flow', 'contents', 'revert'),
  sample: 'display:inline-flex',
  gone: ['inline-flex'],
  suggestion: 'Use display:block, inline-block or flex.',
});
const yahooFontWeight = valueLimit({
  id: 'yahoo-font-weight-numbers',
  notes: ['css-font-weight#1'],
  about: 'number values',
  summary: 'Yahoo removes numeric font-weight values other than the hundreds from 100 to 900.',
  label: 'numeric font-weight',
  properties: ['font-weight'],
  apply: dropWhen((value) => /^\d+$/.test(value) && !/^[1-9]00$/.test(value)),
  sample: 'font-weight:650',
  gone: ['650'],
  suggestion: 'Use a keyword or a hundred (100 to 900).',
});
const yahooWordSpacing = valueLimit({
  id: 'yahoo-word-spacing-units',
  notes: ['css-word-spacing#1'],
  about: 'rem and ch',
  summary: 'Yahoo removes word-spacing given in rem or ch.',
  label: 'word-spacing in rem/ch',
  properties: ['word-spacing'],
  apply: dropWhen((value) => /[\d.](rem|ch)\b/.test(value)),
  sample: 'word-spacing:0.3rem',
  gone: ['0.3rem'],
  suggestion: 'Give word-spacing in px or em.',
});
const yahooTransition = valueLimit({
  id: 'yahoo-transition-limits',
  notes: ['css-transition#1', 'css-transition#2'],
  about: 'longhands and all',
  summary: 'Yahoo removes transition longhands (transition-duration …) and a transition on all.',
  label: 'transition longhand or all',
  properties: ['transition', 'transition-*'],
  apply: (d) => (d.property !== 'transition' || /(^|[\s,])all\b/.test(lower(d.value)) ? null : undefined),
  sample: 'transition:all 0.3s',
  gone: ['0.3s'],
  suggestion: 'Write the transition shorthand with the property named.',
});
const yahooBorderRadius = valueLimit({
  id: 'yahoo-border-radius-slash',
  notes: ['css-border-radius#2'],
  about: 'elliptical slash notation',
  summary: 'Yahoo removes a border-radius written with the elliptical slash notation (10px / 20px).',
  label: 'border-radius with /',
  properties: ['border-radius'],
  apply: dropWhen((value) => value.includes('/')),
  sample: 'border-radius:10px / 21px',
  gone: ['21px'],
  suggestion: 'Write border-radius without the slash.',
});
const yahooBackgroundSize = valueLimit({
  id: 'yahoo-background-size-shorthand',
  notes: ['css-background#2'],
  about: 'the / size part of background',
  summary: 'Yahoo removes a background shorthand that gives the size after a slash (center / cover).',
  label: 'background with / size',
  properties: ['background'],
  apply: dropWhen((value) => /\/\s*[\w.]/.test(withoutBracketed(value, 'url(', ')'))),
  sample: "background:#ffeedd url('https://example.com/a.png') center / cover",
  gone: ['cover'],
  suggestion: 'Give background-size as its own declaration.',
});
const yahooTextJustify = valueLimit({
  id: 'yahoo-text-justify',
  notes: ['css-text-justify#4'],
  about: 'inter-word and distribute only',
  summary: 'Yahoo strips text-justify unless its value is inter-word or distribute.',
  label: 'text-justify',
  properties: ['text-justify'],
  apply: dropWhen((value) => value !== 'inter-word' && value !== 'distribute'),
  sample: 'text-justify:inter-character',
  gone: ['inter-character'],
  suggestion: 'Do not rely on text-justify.',
});
const yahooCursor = valueLimit({
  id: 'yahoo-cursor-values',
  notes: ['css-cursor#4'],
  about: 'a short list of values',
  summary: 'Yahoo keeps only the cursor values crosshair, help, move, pointer, progress, text, wait, auto, default and the one-direction resizes.',
  label: 'cursor value',
  properties: ['cursor'],
  apply: dropWhen((value) => !/^(crosshair|help|move|pointer|progress|text|wait|auto|default|[nsew]{1,2}-resize|inherit|initial|unset)$/.test(value)),
  sample: 'cursor:grab',
  gone: ['grab'],
  suggestion: 'Use cursor:pointer.',
});
const yahooFontSizeAdjust = valueLimit({
  id: 'yahoo-font-size-adjust-metric',
  notes: ['css-font-size-adjust#3'],
  about: 'the font metric ignored',
  summary: 'Yahoo ignores the font metric of a two-value font-size-adjust and keeps the number.',
  label: 'font-size-adjust metric',
  properties: ['font-size-adjust'],
  apply: (d) => {
    const parts = d.value.trim().split(/\s+/);
    return parts.length === 2 ? { ...d, value: parts[1] } : undefined;
  },
  sample: 'font-size-adjust:cap-height 0.7',
  gone: ['cap-height'],
  suggestion: 'Give font-size-adjust a single number.',
});
const yahooLangOnCells: RewriteBehavior = {
  id: 'yahoo-lang-on-cells-removed',
  kind: 'rewrite',
  severity: 'info',
  label: 'lang on <td>',
  summary: 'Yahoo removes the lang attribute of table cells.',
  evidence: [caniemailNote('html-lang#1', 'not on <td>')],
  dropsAttributesOn: ['td', 'th'],
  dropsAttributes: (element) => (element.attrs.some((a) => a.name === 'lang') ? ['lang'] : []),
  suggestion: 'Put lang on a <div> or <p> inside the cell.',
  fixture: {
    html: '<table><tr><td lang="fr">Bonjour</td></tr></table>',
    expect: { transformExcludes: ['lang="fr"'], finding: { rule: 'yahoo-lang-on-cells-removed' } },
  },
};
const ROLE_TAGS = ['div', 'p', 'span', 'a', 'td', 'th', 'tr', 'img', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'section', 'article', 'header', 'footer', 'nav'];
const yahooRoleOnTables: RewriteBehavior = {
  id: 'yahoo-role-tables-only',
  kind: 'rewrite',
  severity: 'info',
  label: 'role outside <table>',
  summary: 'Yahoo keeps the role attribute on <table> only and removes it from other elements.',
  evidence: [caniemailNote('html-role#2', 'only on <table>')],
  dropsAttributesOn: ROLE_TAGS,
  dropsAttributes: (element) => (element.attrs.some((a) => a.name === 'role') ? ['role'] : []),
  suggestion: 'Expect role to reach screen readers only on tables (role="presentation") in Yahoo.',
  fixture: {
    html: '<table role="presentation"><tr><td><div role="heading" aria-level="2">x</div></td></tr></table>',
    expect: { transformIncludes: ['role="presentation"'], transformExcludes: ['role="heading"'], finding: { rule: 'yahoo-role-tables-only' } },
  },
};

// ----- Apple Mail, Samsung Email, Fastmail, HEY, Proton, Thunderbird -----

const appleOverflowLogical = overflowLogical('apple-overflow-logical', 'Apple Mail');
const applePosition = positionValues('apple-position-values', 'Apple Mail', ['css-position#1'], ['sticky', 'fixed']);
const appleBorderLogical = valueLimit({
  id: 'apple-border-logical-sides',
  notes: ['css-border-inline-block-individual#1'],
  about: 'border-inline/block color and width',
  summary: 'The client ignores border-inline-*/border-block-* color and width longhands (border-inline-start-color …).',
  label: 'border-inline/block color or width',
  properties: ['border-inline-*', 'border-block-*'],
  apply: (d) => (/-(color|width)$/.test(d.property) ? null : undefined),
  sample: 'border-inline-start-width:7px',
  gone: ['7px'],
  suggestion: 'Use border-left/right/top/bottom or the logical shorthand.',
});
const underlinePosition = (id: string, who: string): RewriteBehavior =>
  valueLimit({
    id,
    notes: ['css-text-underline-position#1'],
    about: 'under only',
    summary: `${who} supports text-underline-position: under but ignores left and right.`,
    label: 'text-underline-position: left/right',
    properties: ['text-underline-position'],
    apply: dropWhen((value) => /\b(left|right)\b/.test(value)),
    sample: 'text-underline-position:left',
    gone: ['underline-position:left'],
    suggestion: 'Use text-underline-position: under.',
  });
const appleUnderlinePosition = underlinePosition('apple-underline-position-sides', 'Apple Mail');
const samsungPosition = positionValues('samsung-position-values', 'Samsung Email', ['css-position#1'], ['sticky', 'fixed']);
const samsungOverflowLogical = overflowLogical('samsung-overflow-logical', 'Samsung Email');
const samsungTextAlign = logicalAlign('samsung-text-align-match-parent', 'Samsung Email', ['css-text-align#3'], ['match-parent']);
const samsungFontSize = valueLimit({
  id: 'samsung-font-size-relative',
  notes: ['css-font-size#2'],
  about: 'relative and percentage sizes',
  summary: 'Samsung Email ignores relative (larger, smaller) and percentage font sizes.',
  label: 'relative font-size',
  properties: ['font-size'],
  apply: dropWhen((value) => value === 'larger' || value === 'smaller' || /%$/.test(value)),
  sample: 'font-size:120%',
  gone: ['120%'],
  suggestion: 'Give font sizes in px.',
});
const samsungOffsets = valueLimit({
  id: 'samsung-offset-percentages',
  notes: ['css-left-right-top-bottom#2'],
  about: 'percentages',
  summary: 'Samsung Email ignores left, right, top and bottom given in percent.',
  label: 'offset in %',
  properties: ['left', 'right', 'top', 'bottom'],
  apply: dropWhen((value) => /%/.test(value)),
  sample: 'position:relative;left:37%',
  gone: ['37%'],
  suggestion: 'Give offsets in px.',
});
const fastmailPositionSticky = positionValues('fastmail-position-sticky', 'Fastmail', ['css-position#1'], ['sticky']);
const fastmailDisplayTwoValues = valueLimit({
  id: 'fastmail-display-two-values',
  notes: ['css-display#7'],
  about: 'two values joined with a dash',
  summary: 'Fastmail joins a two-value display with a dash (inline flex → inline-flex, block flow → block-flow).',
  label: 'two-value display',
  properties: ['display'],
  apply: (d) => {
    const parts = d.value.trim().split(/\s+/);
    return parts.length === 2 ? { ...d, value: parts.join('-') } : undefined;
  },
  sample: 'display:block flow-root',
  shows: ['display: block-flow-root'],
  suggestion: 'Use one-value display keywords (inline-flex, flow-root).',
});
const fastmailRowGap = valueLimit({
  id: 'fastmail-row-gap',
  notes: ['css-gap#2'],
  about: 'gap and column-gap only',
  summary: 'Fastmail keeps gap and column-gap but removes row-gap.',
  label: 'row-gap',
  properties: ['row-gap'],
  apply: () => null,
  sample: 'row-gap:9px',
  gone: ['9px'],
  suggestion: 'Space rows with margins or padding.',
});
const fastmailReducedMotion: RewriteBehavior = {
  id: 'fastmail-reduced-motion-query',
  kind: 'rewrite',
  severity: 'info',
  label: 'prefers-reduced-motion rewritten',
  summary: 'Fastmail rewrites a prefers-reduced-motion query to @media none: its rules never apply.',
  evidence: [caniemailNote('css-at-media-prefers-reduced-motion#1', '@media none')],
  rewriteAtRule: (name, params) => (name === 'media' && /prefers-reduced-motion/i.test(params) ? 'none' : undefined),
  suggestion: 'Make the default state calm; do not rely on the reduced-motion query in Fastmail.',
  fixture: {
    html: '<html><head><style>@media (prefers-reduced-motion:reduce){.m{transition:none}}</style></head><body><div class="m">x</div></body></html>',
    expect: { transformIncludes: ['@media none{'], finding: { rule: 'fastmail-reduced-motion-query' } },
  },
};
const heyPosition = positionValues('hey-position-values', 'HEY', ['css-position#4'], ['absolute', 'fixed']);
const heyAlignOnImages: RewriteBehavior = {
  id: 'hey-align-on-images-ignored',
  kind: 'rewrite',
  severity: 'info',
  label: 'align on <img>',
  summary: 'HEY ignores the align attribute of images.',
  evidence: [caniemailNote('html-align#2', 'not on <img>')],
  dropsAttributesOn: ['img'],
  dropsAttributes: (element) => (element.attrs.some((a) => a.name === 'align') ? ['align'] : []),
  suggestion: 'Place images with a table cell (align on the <td>).',
  fixture: {
    html: '<img src="https://example.com/a.png" align="right" alt="A">',
    expect: { transformExcludes: ['align="right"'], finding: { rule: 'hey-align-on-images-ignored' } },
  },
};
const protonTextIndent = valueLimit({
  id: 'proton-negative-text-indent',
  notes: ['css-text-indent#2'],
  about: 'hard-coded negative values',
  summary: 'Proton Mail drops a hard-coded negative text-indent (a negative result of calc() works).',
  label: 'negative text-indent',
  properties: ['text-indent'],
  apply: dropWhen((value) => !value.includes('calc(') && NEGATIVE_LENGTH.test(value)),
  sample: 'text-indent:-17px',
  gone: ['-17px'],
  suggestion: 'Hide preheader text with display:none, max-height:0 and overflow:hidden instead of a negative indent.',
});
const protonMarquee: RewriteBehavior = {
  ...owaMarquee,
  id: 'proton-marquee-behavior',
  summary: 'Proton Mail removes the behavior attribute of <marquee>.',
  evidence: [caniemailNote('html-marquee#2', 'behavior')],
  dropsAttributes: (element) => (element.attrs.some((a) => a.name === 'behavior') ? ['behavior'] : []),
  fixture: { html: '<marquee behavior="alternate">x</marquee>', expect: { transformExcludes: ['alternate'], finding: { rule: 'proton-marquee-behavior' } } },
};
const systemUiOnly = (id: string, who: string): RewriteBehavior =>
  valueLimit({
    id,
    notes: ['css-sytem-ui#1'],
    about: 'system-ui only',
    summary: `${who} knows the system-ui family but not ui-serif, ui-sans-serif, ui-rounded or ui-monospace: those names are skipped in the font list.`,
    label: 'ui-* font family',
    properties: ['font-family', 'font'],
    apply: (d) => {
      if (!/\bui-(serif|sans-serif|rounded|monospace)\b/i.test(d.value)) return undefined;
      const families = d.value
        .split(',')
        .map((f) => f.trim())
        .filter((f) => !/^ui-(serif|sans-serif|rounded|monospace)$/i.test(f));
      return families.length > 0 ? { ...d, value: families.join(', ') } : null;
    },
    sample: 'font-family:ui-rounded, Arial, sans-serif',
    gone: ['ui-rounded'],
    suggestion: 'Put a named font before the generic family; ui-* names work in Apple clients only.',
  });

// ----- Second pass: smaller value, at-rule and selector limits -----

/** The client removes a media query that tests one of these features (its rules never apply). */
function mediaFeatureRemoved(id: string, who: string, notes: readonly string[], about: string, test: (params: string) => boolean): RewriteBehavior {
  return {
    id,
    kind: 'rewrite',
    severity: 'warning',
    label: `@media with ${about}`,
    summary: `${who} does not apply a media query that tests ${about}: its rules never apply.`,
    evidence: notes.map((note) => caniemailNote(note, about)),
    rewriteAtRule: (name, params) => (name === 'media' && test(params) ? null : undefined),
    suggestion: 'Make the layout work without this media query; test widths instead.',
    fixture: {
      html: `<html><head><style>.a{color:#102030}@media ${SAMPLE_QUERY[about] ?? '(min-height:500px)'}{.a{color:#ff0000}}</style></head><body><p class="a">x</p></body></html>`,
      expect: { transformIncludes: ['#102030'], transformExcludes: ['#ff0000'], finding: { rule: id } },
    },
  };
}
const SAMPLE_QUERY: Record<string, string> = {
  'a height': '(min-height:500px)',
  'orientation: landscape': '(orientation:landscape)',
  'orientation: portrait': '(orientation:portrait)',
};
const HEIGHT_FEATURES = new Set(['height', 'min-height', 'max-height', 'device-height', 'min-device-height', 'max-device-height', 'aspect-ratio']);
const gmailHeightQueries = mediaFeatureRemoved('gmail-height-media-queries', 'Gmail', ['css-at-media#7'], 'a height', (params) =>
  mediaFeatures(params).some((f) => HEIGHT_FEATURES.has(f)),
);
const protonLandscape = mediaFeatureRemoved('proton-landscape-media-query', 'Proton Mail', ['css-at-media#8'], 'orientation: landscape', (params) =>
  /orientation\s*:\s*landscape/i.test(params),
);
const appleIosPortrait = mediaFeatureRemoved(
  'apple-ios-portrait-media-query',
  'Apple Mail on iOS',
  ['css-at-media-orientation#2'],
  'orientation: portrait',
  (params) => /orientation\s*:\s*portrait/i.test(params),
);

const appleVhZero = valueLimit({
  id: 'apple-ios-vh-zero',
  notes: ['css-unit-vh#2'],
  about: 'vh resolves to zero',
  summary: 'Apple Mail on iOS resolves vh lengths to zero.',
  label: 'vh length',
  properties: [
    'height',
    'min-height',
    'max-height',
    'width',
    'min-width',
    'max-width',
    'padding',
    'padding-*',
    'margin',
    'margin-*',
    'font-size',
    'line-height',
  ],
  apply: (d) => (/[\d.]vh\b/i.test(d.value) ? { ...d, value: d.value.replace(/[-+]?[\d.]+vh\b/gi, '0px') } : undefined),
  sample: 'min-height:43vh',
  gone: ['43vh'],
  suggestion: 'Give heights in px for Apple Mail on iOS.',
});
const userSelectValue = (id: string, who: string, notes: readonly string[], value: string): RewriteBehavior =>
  valueLimit({
    id,
    notes,
    about: `${value} does not work`,
    summary: `${who} ignores user-select: ${value}.`,
    label: `user-select: ${value}`,
    properties: ['user-select', '-webkit-user-select'],
    apply: keyword(value),
    sample: `user-select:${value}`,
    gone: [`user-select:${value}`, `user-select: ${value}`],
    suggestion: 'Do not rely on user-select in email.',
  });
const appleIosUserSelectAll = userSelectValue('apple-ios-user-select-all', 'Apple Mail on iOS', ['css-user-select#2'], 'all');
const protonUserSelectAll = userSelectValue('proton-user-select-all', 'Proton Mail', ['css-user-select#2'], 'all');
const protonUserSelectNone = userSelectValue('proton-user-select-none', 'Proton Mail', ['css-user-select#4'], 'none');
const appleMacCursorUrl = valueLimit({
  id: 'apple-macos-cursor-url',
  notes: ['css-cursor#1'],
  about: 'url() not supported',
  summary: 'Apple Mail on macOS ignores a cursor given as an image (url()).',
  label: 'cursor: url()',
  properties: ['cursor'],
  apply: dropWhen((value) => value.includes('url(')),
  sample: 'cursor:url(https://example.com/c.png), pointer',
  gone: ['c.png'],
  suggestion: 'Use a keyword cursor (pointer).',
});
const protonCursorUrlInStyle: RewriteBehavior = {
  id: 'proton-cursor-url-in-style',
  kind: 'rewrite',
  severity: 'info',
  label: 'cursor: url() in <style>',
  summary: 'Proton Mail honors a cursor image (url()) only in a style attribute; in a <style> block it is dropped.',
  evidence: [caniemailNote('css-cursor#5', 'url() only inline')],
  properties: ['cursor'],
  rewrite: (d, site) => (!site.inline && /url\(/i.test(d.value) ? null : undefined),
  suggestion: 'Give a cursor image inline, or use a keyword cursor.',
  fixture: {
    html: '<html><head><style>.c{cursor:url(https://example.com/c.png), pointer;color:#102030}</style></head><body><a class="c" href="https://example.com">x</a></body></html>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['c.png'], finding: { rule: 'proton-cursor-url-in-style' } },
  },
};
const appleMacResize = valueLimit({
  id: 'apple-macos-resize-logical',
  notes: ['css-resize#2'],
  about: 'inline and block values',
  summary: 'Apple Mail on macOS ignores resize: inline and resize: block.',
  label: 'resize: inline/block',
  properties: ['resize'],
  apply: keyword('inline', 'block'),
  sample: 'resize:inline;overflow:auto',
  gone: ['resize:inline', 'resize: inline'],
  suggestion: 'Use resize: horizontal or vertical.',
});
const wordMarginAuto = valueLimit({
  id: 'word-margin-auto',
  notes: ['css-margin#4'],
  about: 'auto not supported',
  summary: 'The Word engine ignores margin: auto (a block is not centered by it).',
  label: 'margin: auto',
  properties: ['margin', 'margin-left', 'margin-right'],
  apply: dropWhen((value) => /(^|\s)auto(\s|$)/.test(value)),
  sample: 'margin:0 auto',
  gone: ['0 auto'],
  suggestion: 'Center with align="center" on the table (or a centered parent cell).',
});
const LIST_STYLE_TYPES =
  /^(disc|circle|square|decimal|decimal-leading-zero|lower-roman|upper-roman|lower-alpha|upper-alpha|lower-latin|upper-latin|lower-greek|none)$/;
const wordListStyleTypeOnly = valueLimit({
  id: 'word-list-style-type-only',
  notes: ['css-list-style#2'],
  about: 'list-style-type values only',
  summary: 'The Word engine reads only the type of a list-style shorthand (square, decimal …); the position and image are dropped.',
  label: 'list-style position or image',
  properties: ['list-style'],
  apply: (d) => {
    const tokens = withoutBracketed(d.value.toLowerCase(), 'url(', ')', ' url ').trim().split(/\s+/);
    if (tokens.every((t) => LIST_STYLE_TYPES.test(t.toLowerCase()))) return undefined;
    const types = tokens.filter((t) => LIST_STYLE_TYPES.test(t.toLowerCase()));
    return types.length > 0 ? { ...d, value: types.join(' ') } : null;
  },
  sample: 'list-style:square inside',
  shows: ['list-style: square'],
  gone: ['inside'],
  suggestion: 'Give list-style-type alone; indent lists with margin on the <ul>.',
});
const protonUppercaseImportant: RewriteBehavior = {
  id: 'proton-uppercase-important',
  kind: 'rewrite',
  severity: 'warning',
  label: '!IMPORTANT',
  summary: 'Proton Mail ignores !important written with uppercase letters (!IMPORTANT): the declaration counts as normal.',
  evidence: [caniemailNote('css-important#8', 'lowercase only')],
  importantOnly: true,
  rewrite: (d, site) => (d.important && site.raw !== undefined && UPPERCASE_IMPORTANT.test(site.raw) ? { ...d, important: false } : undefined),
  suggestion: 'Write !important in lowercase.',
  fixture: {
    html: '<html><head><style>.a{color:#102030 !IMPORTANT}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['color:#102030;'], transformExcludes: ['IMPORTANT'], finding: { rule: 'proton-uppercase-important' } },
  },
};
const gmailAndroidInlineGradient: RewriteBehavior = {
  id: 'gmail-android-inline-gradient',
  kind: 'rewrite',
  severity: 'warning',
  label: 'gradient in an inline background-image',
  summary: 'Gmail for Android drops a linear or radial gradient given in an inline background-image (in <style> it works).',
  evidence: [
    caniemailNote('css-linear-gradient#3', 'not inline in background-image'),
    caniemailNote('css-radial-gradient#2', 'not inline in background-image'),
  ],
  properties: ['background-image'],
  rewrite: (d, site) => (site.inline && /(linear|radial)-gradient\(/i.test(d.value) ? null : undefined),
  suggestion: 'Put the gradient in a <style> rule, or in the background shorthand, with a background-color fallback.',
  fixture: {
    html: '<div style="background-color:#102030;background-image:linear-gradient(#ff0000, #0000ff)">x</div>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['gradient'], finding: { rule: 'gmail-android-inline-gradient' } },
  },
};
const owaDefaultPseudo = selectorLimit({
  id: 'outlook-default-pseudo-inputs-only',
  notes: ['css-pseudo-class-default#1'],
  about: 'radio and checkbox inputs only',
  summary: 'Outlook.com keeps :default only on <input> (radio buttons and checkboxes); other :default rules are dropped.',
  drops: (selector) => compounds(selector).some((compound) => pseudosOf(compound).includes('default') && !/^input\b/i.test(compound)),
  html: '<html><head><style>td{color:#ff0000}option:default{color:#00ff00}</style></head><body><table><tr><td>x</td></tr></table></body></html>',
  gone: ['#00ff00'],
  kept: ['#ff0000'],
});

const outlookTargetInert = selectorLimit({
  id: 'outlook-target-inert',
  notes: ['css-pseudo-class-target#2'],
  about: 'kept but does not work',
  summary: 'Outlook keeps :target rules in the markup but they never match; modeled as the rule removed (the same rendering).',
  drops: (selector) => compounds(selector).some((compound) => pseudosOf(compound).includes('target')),
  html: '<html><head><style>td{color:#ff0000}td:target{color:#00ff00}</style></head><body><table><tr><td id="t">x</td></tr></table></body></html>',
  gone: ['#00ff00'],
  kept: ['#ff0000'],
});
// A tab written as a character reference, or a literal tab between two visible characters; tabs that indent
// the source (after a line break or other white space) are layout of the file, not text, and are left alone.
const TAB_CHARACTER = /&#0*9;|&#x0*9;|&Tab;|(?<=\S)\t+(?=\S)/gi;
const outlookTabStripped: AdditionBehavior = {
  id: 'outlook-tab-character-stripped',
  kind: 'addition',
  severity: 'info',
  summary: 'Outlook (web, Windows and Mac) strips tab characters from the text, so tab-size has nothing to size.',
  evidence: [caniemailNote('css-tab-size#2', 'tab character stripped')],
  disabledBy: () => false,
  restyledBy: () => false,
  addTo: (text) => {
    // Every match holds a tab or an ampersand: most texts have neither, and the pattern (a look-behind) is not run.
    if (!text.includes('\t') && !text.includes('&')) return undefined;
    const count = text.match(TAB_CHARACTER)?.length ?? 0;
    return count > 0 ? { text: text.replace(TAB_CHARACTER, ''), count } : undefined;
  },
  suggestion: 'Indent with padding or non-breaking spaces instead of tab characters.',
  fixture: {
    html: '<pre style="tab-size:4">a&#9;b</pre>',
    expect: { transformIncludes: ['ab</pre>'], finding: { rule: 'outlook-tab-character-stripped' } },
  },
};

const OUTLOOK_COM: readonly ClientBehavior[] = [
  owaPseudoTypeOnly,
  outlookTargetInert,
  outlookTabStripped,
  owaDefaultPseudo,
  outlookAttributeLimits,
  owaBodyToDiv,
  baseRemoved('outlook-base-removed', 'Outlook'),
  owaNegativeMargin,
  owaOverflowLogical,
  owaPosition,
  outlookReversed,
  owaMarquee,
  owaGap,
];

/** The additions per client, appended to each model's behaviours by client-models.ts. */
export const DOCUMENTED_LIMITS: Partial<Record<ClientId, readonly ClientBehavior[]>> = {
  'gmail-web': [
    gmailHeightQueries,
    gmailUTags,
    baseRemoved('gmail-base-removed', 'Gmail'),
    gmailBackgroundPositions,
    gmailTextIndent,
    gmailOverflowLogical,
    gmailListStyle,
    gmailReversed,
    gmailCustomProperties,
    gmailGap,
  ],
  'gmail-android': [
    gmailHeightQueries,
    gmailAndroidInlineGradient,
    gmailUTags,
    baseRemoved('gmail-base-removed', 'Gmail'),
    gmailBackgroundPositions,
    gmailTextIndent,
    gmailOverflowLogical,
    gmailListStyle,
    gmailReversed,
    gmailCustomProperties,
    gmailGap,
    gmailAppsWhiteSpacePre,
    gmailAndroidTextAlign,
    gmailAndroidClear,
    gmailAppsFloat,
    systemUiOnly('gmail-android-system-ui-only', 'Gmail for Android'),
  ],
  'gmail-ios': [
    gmailHeightQueries,
    gmailUTags,
    baseRemoved('gmail-base-removed', 'Gmail'),
    gmailBackgroundPositions,
    gmailTextIndent,
    gmailOverflowLogical,
    gmailListStyle,
    gmailReversed,
    gmailCustomProperties,
    gmailGap,
    gmailAppsWhiteSpacePre,
    gmailAppsFloat,
    underlinePosition('gmail-ios-underline-position-sides', 'Gmail for iOS'),
  ],
  // The new Outlook for Windows renders with Outlook.com's engine.
  'outlook-web': OUTLOOK_COM,
  'outlook-windows': OUTLOOK_COM,
  'outlook-windows-legacy': [
    wordNegativeMargin,
    wordRgb,
    wordRgbAlpha,
    wordTextAlign,
    wordRemFontSize,
    wordFontWeight,
    wordTextDecoration,
    wordTextTransform,
    wordTextJustify,
    wordReversed,
    wordTitleRemoved,
    wordMarginAuto,
    wordListStyleTypeOnly,
  ],
  'outlook-macos': [
    outlookMacPseudoTypeOnly,
    outlookTargetInert,
    outlookTabStripped,
    outlookAttributeLimits,
    baseRemoved('outlook-base-removed', 'Outlook'),
    outlookAppsNegativeMargin,
    outlookAppsOverflowLogical,
    owaPosition,
    outlookMacListStyle,
    outlookReversed,
    owaMarquee,
    owaGap,
  ],
  'outlook-ios': [
    outlookIosPseudoTypeOnly,
    outlookAttributeLimits,
    owaBodyToDiv,
    baseRemoved('outlook-base-removed', 'Outlook'),
    outlookAppsNegativeMargin,
    outlookAppsOverflowLogical,
    outlookAppsWhiteSpacePre,
    outlookIntrinsicSize,
    outlookReversed,
    owaGap,
    underlinePosition('outlook-ios-underline-position-sides', 'Outlook for iOS'),
  ],
  'outlook-android': [
    outlookAndroidPseudoTypeOnly,
    outlookAttributeLimits,
    owaBodyToDiv,
    outlookAppsNegativeMargin,
    outlookAppsOverflowLogical,
    owaPosition,
    outlookAppsWhiteSpacePre,
    outlookIntrinsicSize,
    outlookAndroidTextAlign,
    outlookAndroidClear,
    outlookReversed,

    owaGap,
    systemUiOnly('outlook-android-system-ui-only', 'Outlook for Android'),
  ],
  'apple-mail-macos': [appleMacCursorUrl, appleMacResize, appleOverflowLogical, applePosition, appleBorderLogical, appleUnderlinePosition],
  'apple-mail-ios': [appleIosPortrait, appleVhZero, appleIosUserSelectAll, appleOverflowLogical, applePosition, appleUnderlinePosition],
  'yahoo-mail': yahooShared([yahooCursor, yahooTextJustify, yahooFontSizeAdjust]),
  'yahoo-mail-ios': yahooShared([yahooAppsWhiteSpacePre, yahooFontSizeAdjust]),
  'yahoo-mail-android': yahooShared([
    yahooAppsWhiteSpacePre,
    yahooCursor,
    yahooFontSizeAdjust,
    systemUiOnly('yahoo-android-system-ui-only', 'Yahoo Mail for Android'),
  ]),
  aol: yahooShared([]),
  'samsung-mail': [
    samsungPosition,
    samsungOverflowLogical,
    samsungTextAlign,
    samsungFontSize,
    samsungOffsets,
    appleBorderLogical,
    systemUiOnly('samsung-system-ui-only', 'Samsung Email'),
  ],
  fastmail: [baseRemoved('fastmail-base-removed', 'Fastmail'), fastmailPositionSticky, fastmailDisplayTwoValues, fastmailRowGap, fastmailReducedMotion],
  'hey-mail': [heyBodyToDiv, baseRemoved('hey-base-removed', 'HEY'), heyPosition, heyAlignOnImages],
  protonmail: [protonLandscape, protonUserSelectAll, protonUserSelectNone, protonCursorUrlInStyle, protonUppercaseImportant, protonTextIndent, protonMarquee],
  thunderbird: [systemUiOnly('thunderbird-system-ui-only', 'Thunderbird')],
};

function yahooShared(extra: readonly ClientBehavior[]): readonly ClientBehavior[] {
  return [
    yahooAttributeLimits,
    yahooNegativeMargin,
    yahooRgb,
    yahooTextIndent,
    yahooTextAlign,
    yahooClearFloat,
    yahooRemFontSize,
    yahooOverflowLogical,
    yahooPosition,
    yahooListStyle,
    yahooReversed,
    yahooDisplay,
    yahooFontWeight,
    yahooWordSpacing,
    yahooTransition,
    yahooBorderRadius,
    yahooBackgroundSize,
    yahooLangOnCells,
    yahooRoleOnTables,
    ...extra,
  ];
}
