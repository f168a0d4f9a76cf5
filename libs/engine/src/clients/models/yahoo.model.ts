import type { ChildNode } from 'postcss';
import { bodyToDiv } from './body-to-div';
import { bodyBase } from './base-url';
import { caniemailNote } from './documented-limits.model';
import type { ClientModel, DarkBehavior, DropBlockBehavior, PrefixBehavior, RewriteBehavior, SanitizeBehavior } from './client-behavior';
import { PREFIXED_ATTRIBUTE_LIMIT, hasTopLevelComma, mediaFeatures, readsPrefixedAttribute, removeTopLevelCommas } from './css-text';

/**
 * Yahoo Mail (web and apps) and AOL Mail, which has run on Yahoo's stack since 2018: a sanitizer that
 * prefixes every class with `yiv<digits>`, scopes every rule under the message's `#yiv<digits>` wrapper,
 * and rewrites properties and media queries it does not like.
 */

/** Yahoo's per-message number is random; the model writes a fixed one so that output stays deterministic. */
export const YAHOO_SCOPE = 'yiv0000000000';

const FUNCTIONAL_PSEUDO = /:(?:nth-child|nth-of-type|nth-last-child|nth-last-of-type|has)\(/i;
/** A `body` or `html` type selector (the start of a compound). */
const ROOT_COMPOUND = /(?:^|[\s>+~(])(?:html|body)(?![-\w])/i;

const yahooPrefix: PrefixBehavior = {
  id: 'yahoo-class-prefix',
  kind: 'prefix',
  classPrefix: YAHOO_SCOPE,
  idPrefix: YAHOO_SCOPE,
  summary: `Yahoo prefixes every class and id with yiv<digits> (modeled as ${YAHOO_SCOPE}), wraps the message in <div id="yiv<digits>"> and scopes every <style> rule under #yiv<digits>.`,
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/16',
      title: 'email-bugs #16 (output sample: #yiv9917841803 .yiv9917841803bg1)',
      date: '2019-02-18',
    },
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/25',
      title: 'email-bugs #25 (rewritten output shown: <div id="yiv…"> around the message, #yiv… body { … } never matching)',
      date: '2021-02-25',
    },
    { url: 'https://github.com/hteumeuleu/email-bugs/issues/58', title: 'email-bugs #58: AOL Mail uses the Yahoo engine since July 2018', date: '2018-07' },
    {
      url: 'https://www.caniemail.com/features/css-pseudo-class-nth-child/',
      title: 'caniemail: :nth-child() (Yahoo: removes the parenthesis part)',
      date: '2019-10-19',
    },
  ],
  // Functional pseudo-classes lose their argument (:nth-child(2) -> :nth-child), which voids the rule.
  rewriteSelector: (selector) =>
    selector
      .replace(/(:(?:nth-child|nth-of-type|nth-last-child|nth-last-of-type|has))\([^)]*\)/gi, '$1')
      .split(',')
      .map((part) => `#${YAHOO_SCOPE} ${part.trim()}`)
      .join(','),
  // The scope needs the wrapper: without it no rewritten rule matches anything.
  scopeWrapper: { open: `<div id="${YAHOO_SCOPE}">`, close: '</div>' },
  selectorLimit: (selector) => {
    if (FUNCTIONAL_PSEUDO.test(selector)) return 'a functional pseudo-class loses its argument';
    if (ROOT_COMPOUND.test(selector)) return 'body and html sit outside the #yiv… wrapper: the scoped selector matches nothing';
    return readsPrefixedAttribute(selector) ? PREFIXED_ATTRIBUTE_LIMIT : undefined;
  },
  fixture: {
    html: '<html><head><style>.box{width:600px} td:nth-child(2){color:#ff0000}</style></head><body><div class="box">x</div><table><tr><td>a</td><td>b</td></tr></table></body></html>',
    expect: {
      transformIncludes: [`<body><div id="${YAHOO_SCOPE}"><div class="${YAHOO_SCOPE}box">`, `#${YAHOO_SCOPE} .${YAHOO_SCOPE}box{`, '</table></div></body>'],
      transformExcludes: ['nth-child(2)'],
    },
  },
};

const commaMediaQuery: DropBlockBehavior = {
  id: 'yahoo-media-query-list',
  kind: 'drop-block',
  scope: 'rest',
  severity: 'warning',
  summary: 'Yahoo drops a @media rule whose query is a comma-separated list, and every rule after it in the same <style> block.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/149',
      title: 'email-bugs #149: Yahoo Mail breaks media queries with several conditions separated by a comma (open)',
      date: '2025-08-19',
    },
  ],
  find: ({ sheet }) => {
    const node = sheet.root.nodes.find((n) => n.type === 'atrule' && n.name.toLowerCase() === 'media' && hasTopLevelComma(n.params));
    return node ? { node, label: '@media with a comma' } : undefined;
  },
  suggestion: 'Write one @media rule per condition, or move the rules that follow into another <style> block.',
  fixture: {
    html: '<html><head><style>@media screen and (max-width:450px),(orientation:landscape){.col{display:block !important}} p{font-size:24px}</style></head><body><p class="col">x</p></body></html>',
    expect: { transformExcludes: ['font-size:24px', 'orientation'], finding: { rule: 'yahoo-media-query-list' } },
  },
};

/** An attribute selector whose value holds a semicolon: div[style="margin:0;"]. */
const SEMICOLON_IN_ATTRIBUTE = /\[[^\]]*;[^\]]*\]/;

const semicolonAttributeSelector: DropBlockBehavior = {
  id: 'yahoo-semicolon-attribute-selector',
  kind: 'drop-block',
  scope: 'rest',
  severity: 'warning',
  summary: 'Yahoo and AOL drop a rule whose attribute selector holds a semicolon in its value, and every rule after it in the same <style> block.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/74',
      title: 'email-bugs #74: Yahoo and AOL break all styles after an attribute selector with a semicolon (open)',
      date: '2019-12-16',
    },
  ],
  find: ({ sheet }) => {
    const poisoned = (node: ChildNode): boolean => {
      if (node.type === 'rule' && SEMICOLON_IN_ATTRIBUTE.test(node.selector)) return true;
      return node.type === 'atrule' || node.type === 'rule' ? (node.nodes ?? []).some(poisoned) : false;
    };
    const node = sheet.root.nodes.find(poisoned);
    return node ? { node, label: 'attribute selector with ;' } : undefined;
  },
  suggestion: 'Split the value without its semicolon: [style^="margin: 16px 0"][style$="font-size: 80%"].',
  fixture: {
    html: '<html><head><style>.a{color:#102030} div[style="margin:0;"]{display:none} .b{color:#203040}</style></head><body><div class="a b" style="margin:0;">x</div></body></html>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['#203040'], finding: { rule: 'yahoo-semicolon-attribute-selector' } },
  },
  // An attribute value without a semicolon breaks nothing.
  counterFixture: {
    html: '<html><head><style>.a{color:#102030} div[style="margin:0"]{display:none} .b{color:#203040}</style></head><body><div class="a b" style="margin:0">x</div></body></html>',
    expect: { transformIncludes: ['#203040'], noFindingFor: 'yahoo-semicolon-attribute-selector' },
  },
};

const ALLOWED_MEDIA_FEATURES = new Set(['min-width', 'max-width', 'min-height', 'max-height']);

const mediaFeatureFilter: RewriteBehavior = {
  id: 'yahoo-media-feature-filter',
  kind: 'rewrite',
  severity: 'warning',
  label: '@media feature Yahoo filters',
  summary:
    'Yahoo keeps only the width and height features of a media query; any other feature (prefers-color-scheme, orientation, resolution) becomes an empty condition that never matches.',
  evidence: [
    { url: 'https://www.caniemail.com/features/css-at-media/', title: 'caniemail: @media (Yahoo notes)', date: '2023-12-13' },
    {
      url: 'https://www.caniemail.com/features/css-at-media-prefers-color-scheme/',
      title: 'caniemail: prefers-color-scheme (Yahoo: rewritten to an empty condition)',
      date: '2023-03-08',
    },
  ],
  rewriteAtRule: (name, params) => {
    if (name !== 'media') return undefined;
    if (mediaFeatures(params).every((feature) => ALLOWED_MEDIA_FEATURES.has(feature))) return undefined;
    return params.replace(/\(\s*([a-z-]+)\s*(?::[^)]*)?\)/gi, (whole, feature: string) => (ALLOWED_MEDIA_FEATURES.has(feature.toLowerCase()) ? whole : '()'));
  },
  suggestion: 'Yahoo applies no dark-mode or orientation queries: design the light version to work there.',
  fixture: {
    html: '<html><head><style>@media (prefers-color-scheme:dark){.a{color:#ffffff}}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['@media (){'], transformExcludes: ['prefers-color-scheme'], finding: { rule: 'yahoo-media-feature-filter' } },
  },
};

const heightToMinHeight: RewriteBehavior = {
  id: 'yahoo-height-to-min-height',
  kind: 'rewrite',
  severity: 'warning',
  label: 'height renamed min-height',
  summary: 'Yahoo renames the CSS height property to min-height (the value is kept; the height attribute is not touched).',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/9',
      title: 'email-bugs #9: Yahoo converts the height property to min-height (open)',
      date: '2020-06-18',
      note: 'A 2020 comment says the iOS app stopped doing it; webmail, Android and AOL still do.',
    },
    { url: 'https://www.caniemail.com/features/css-height/', title: 'caniemail: height (Yahoo, AOL: replaces height by min-height)', date: '2019-09-27' },
  ],
  properties: ['height'],
  rewrite: (d) => (d.property === 'height' ? { ...d, property: 'min-height' } : undefined),
  suggestion: 'Use the height attribute on tables, cells and images, or set both height and max-height.',
  fixture: {
    html: '<table><tr><td style="height:40px">x</td></tr></table>',
    expect: { transformIncludes: ['min-height: 40px'], finding: { rule: 'yahoo-height-to-min-height' } },
  },
};

const imageClassRemoved: RewriteBehavior = {
  id: 'yahoo-image-class-removed',
  kind: 'rewrite',
  severity: 'warning',
  label: 'class on <img>',
  summary: 'Yahoo removes the class attribute from <img> elements, so class rules (show/hide swaps, responsive sizes) never reach images.',
  evidence: [
    { url: 'https://github.com/hteumeuleu/email-bugs/issues/157', title: 'email-bugs #157: Yahoo and AOL remove class from images (open)', date: '2025' },
  ],
  dropsAttributesOn: ['img'],
  dropsAttributes: (element) => (element.tagName === 'img' && element.attrs.some((a) => a.name === 'class') ? ['class'] : []),
  suggestion: 'Put the class on a wrapping <td> or <span> and target the image with a descendant selector.',
  fixture: {
    html: '<img class="hero" src="https://example.com/a.png" alt="A" width="600">',
    expect: { transformExcludes: ['hero'], finding: { rule: 'yahoo-image-class-removed' } },
  },
};

const spacedImportantDisplay: RewriteBehavior = {
  id: 'yahoo-spaced-important-display',
  kind: 'rewrite',
  severity: 'warning',
  label: 'display with " !important"',
  summary: 'Yahoo drops !important from a display declaration when a space precedes it (display:block !important loses to other rules).',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/16',
      title: 'email-bugs #16: Yahoo removes !important with a space before for the display property (open)',
      date: '2016-03-30',
      note: 'caniemail (2021-11) describes the opposite spelling for background-image; only display is modeled.',
    },
  ],
  properties: ['display'],
  rewrite: (d, site) =>
    d.property === 'display' && d.important && site.raw !== undefined && /\s!\s*important$/i.test(site.raw) ? { ...d, important: false } : undefined,
  suggestion: 'Write display:block!important without the space for Yahoo.',
  fixture: {
    html: '<html><head><style>@media (max-width:600px){.b{display:block !important}}</style></head><body><div class="b">x</div></body></html>',
    expect: { transformIncludes: ['display:block;'], transformExcludes: ['display:block !important'], finding: { rule: 'yahoo-spaced-important-display' } },
  },
};

const bodyAttributes = bodyToDiv('yahoo-body-to-div', 'Yahoo', [
  { url: 'https://www.caniemail.com/features/html-body/', title: 'caniemail: <body> (Yahoo: replaced by a <div>)', date: '2021-11-30' },
  { url: 'https://github.com/mjmlio/mjml/pull/167', title: 'mjml #167: Yahoo deletes the background on the body tag', date: '2016-03-29' },
]);

const lastBodyBase: SanitizeBehavior = {
  id: 'yahoo-base-last-in-body',
  kind: 'sanitize',
  severity: 'warning',
  resolvesUrlsAgainst: bodyBase('last'),
  summary:
    'Yahoo resolves relative links and images against the last <base> in the body (a browser uses the first <base> of the document), then removes the <base>.',
  evidence: [caniemailNote('html-base#3', 'the last <base> in <body>'), caniemailNote('html-base#1', 'removed, URLs turned into absolute links')],
  suggestion: 'Write absolute URLs, or keep a single <base>.',
  fixture: {
    html: '<html><head><base href="https://a.example.com/"></head><body><base href="https://b.example.com/"><base href="https://c.example.com/"><a href="page">x</a></body></html>',
    expect: { transformIncludes: ['href="https://c.example.com/page"'], finding: { rule: 'yahoo-base-last-in-body' } },
  },
  // One base: the same URL as in a browser, written absolute, and no note.
  counterFixture: {
    html: '<html><head><base href="https://a.example.com/"></head><body><a href="page">x</a></body></html>',
    expect: { transformIncludes: ['href="https://a.example.com/page"'], noFindingFor: 'yahoo-base-last-in-body' },
  },
};

const baseRemoved: SanitizeBehavior = {
  id: 'yahoo-base-removed',
  kind: 'sanitize',
  severity: 'info',
  removesElements: new Set(['base']),
  summary: 'Yahoo removes <base> (after resolving relative links against it).',
  evidence: [{ url: 'https://www.caniemail.com/features/html-base/', title: 'caniemail: <base> (Yahoo notes 1, 3, 4)', date: '2021-12-01' }],
  suggestion: 'Write absolute URLs.',
  fixture: {
    html: '<html><head><base href="https://example.com/"></head><body><a href="https://example.com/page">x</a></body></html>',
    expect: { transformExcludes: ['<base'] },
  },
};

const multipleBackgrounds: RewriteBehavior = {
  id: 'yahoo-background-layers',
  kind: 'rewrite',
  severity: 'warning',
  label: 'several background layers',
  summary: 'Yahoo deletes the commas between background layers (url(a), url(b)), which leaves one invalid value: no background.',
  evidence: [
    { url: 'https://www.caniemail.com/features/css-background/', title: 'caniemail: background (Yahoo notes)', date: '2023-07-24' },
    { url: 'https://www.caniemail.com/features/css-background-image/', title: 'caniemail: background-image (Yahoo notes)', date: '2023-07-24' },
  ],
  properties: ['background', 'background-image', 'background-position', 'background-repeat', 'background-size'],
  rewrite: (d) => (hasTopLevelComma(d.value) ? { ...d, value: removeTopLevelCommas(d.value) } : undefined),
  suggestion: 'Use one background layer (and a background-color fallback).',
  fixture: {
    html: `<div style="background-image:url('https://example.com/a.png'),url('https://example.com/b.png');color:#333333">x</div>`,
    expect: { transformIncludes: ["url('https://example.com/a.png') url('https://example.com/b.png')"], finding: { rule: 'yahoo-background-layers' } },
  },
};

/** A url() whose argument does not start with a quote. */
const UNQUOTED_URL = /url\(\s*(?!['"])/i;

const unquotedInlineBackground: RewriteBehavior = {
  id: 'yahoo-unquoted-background-url',
  kind: 'rewrite',
  severity: 'warning',
  label: 'background url() without quotes',
  summary: "Yahoo's and AOL's webmails remove an inline background or background-image whose url() has no quotes around the URL.",
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/79',
      title: 'email-bugs #79: Yahoo and AOL remove inline background image declarations with no quotes around the URL (open)',
      date: '2020-04-01',
      note: 'Reported for the desktop webmails; a quoted URL is kept (and proxied).',
    },
  ],
  properties: ['background', 'background-image'],
  valueMatches: UNQUOTED_URL,
  rewrite: (d, site) => (site.inline && UNQUOTED_URL.test(d.value) ? null : undefined),
  suggestion: "Quote the URL: background-image:url('https://…').",
  fixture: {
    html: '<div style="background:url(https://example.com/bg.png);color:#102030">x</div>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['bg.png'], finding: { rule: 'yahoo-unquoted-background-url' } },
  },
  // A quoted URL, or one in a <style> block, is kept.
  counterFixture: {
    html: '<div style="background:url(\'https://example.com/bg.png\');color:#102030">x</div>',
    expect: { transformIncludes: ['bg.png'], noFindingFor: 'yahoo-unquoted-background-url' },
  },
};

/** Elements a revealed comment may hold that the sanitizer never lets through (the view must not run them). */
const ACTIVE_CONTENT = /<(script|iframe|object|embed)\b[\s\S]*?(?:<\/\1\s*>|$)/gi;

const commentEndsAtArrow: RewriteBehavior = {
  id: 'yahoo-comment-ends-at-arrow',
  kind: 'rewrite',
  severity: 'warning',
  label: 'HTML comment with ->',
  summary: 'Yahoo ends an HTML comment at the first -> inside it: what follows, up to and including the real -->, shows in the email.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/95',
      title: 'email-bugs #95: [Yahoo | GANGA] HTML comments partially removed (open)',
      date: '2021-07-01',
      note: "Seen in Yahoo's webmail and Android app; the thread's reply uses it to show a paragraph to Yahoo and AOL only. Gmail's Android app with a non-Google account (a reader setting) ends a comment at the second ->: not modeled.",
    },
  ],
  rewriteComment: (text) => {
    const at = text.indexOf('->');
    return at < 0 ? undefined : `${text.slice(at + 2).replace(ACTIVE_CONTENT, '')}-->`;
  },
  suggestion: 'Do not write -> inside an HTML comment (arrows in commented-out notes, a single-dash -> instead of -->).',
  fixture: {
    html: '<p>a</p><!-- note -> shown text --><p>b</p>',
    expect: { transformIncludes: ['<p>a</p> shown text --><p>b</p>'], finding: { rule: 'yahoo-comment-ends-at-arrow' } },
  },
  // A comment without -> stays a comment.
  counterFixture: {
    html: '<p>a</p><!-- a note --><p>b</p>',
    expect: { transformIncludes: ['<!-- a note -->'], noFindingFor: 'yahoo-comment-ends-at-arrow' },
  },
};

const webDark: DarkBehavior = {
  id: 'yahoo-web-dark',
  kind: 'dark',
  model: 'none',
  summary: "Yahoo Mail and AOL on the web darken their interface and leave the email's colors; the email's dark rules never apply there.",
  evidence: [
    {
      url: 'https://www.caniemail.com/features/css-at-media-prefers-color-scheme/',
      title: 'caniemail: prefers-color-scheme (Yahoo: not supported)',
      date: '2023-03-08',
    },
    {
      url: 'https://docs.yespo.io/docs/dark-mode-in-emails',
      title: 'Yespo: Dark mode in emails (Yahoo: no color change)',
      date: '2024',
      note: 'email-bugs #156 (2025-09) shows near-white backgrounds recolored in some accounts: disputed.',
    },
  ],
  // The email's dark rules must not reach the dark view (an untouched email's would).
  fixture: {
    html: '<html><head><style>.a{color:#000000}@media (prefers-color-scheme:dark){.a{color:#ffffff}}</style></head><body style="background-color:#ffffff"><p class="a">x</p></body></html>',
    expect: { darkIncludes: ['background-color:#ffffff'], darkExcludes: ['prefers-color-scheme:dark'] },
  },
};

const appDark: DarkBehavior = {
  id: 'yahoo-app-dark',
  kind: 'dark',
  model: 'partial-inversion',
  summary: 'the Yahoo Mail apps darken light backgrounds and lighten dark text (partial inversion); transparent images get a white backing.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/139',
      title: 'email-bugs #139: Yahoo iOS dark mode and transparent PNGs (open)',
      date: '2024-05-22',
    },
  ],
  fixture: {
    html: '<body><table><tr><td style="background-color:#ffffff;color:#000000">x</td><td style="background-color:#111111;color:#eeeeee">y</td></tr></table></body>',
    expect: { darkExcludes: ['background-color:#ffffff'], darkIncludes: ['style="background-color:#111111;color:#eeeeee"'] },
  },
};

const CHECKED = '2026-11-27';
const WEB = [
  yahooPrefix,
  commaMediaQuery,
  semicolonAttributeSelector,
  mediaFeatureFilter,
  heightToMinHeight,
  imageClassRemoved,
  spacedImportantDisplay,
  multipleBackgrounds,
  bodyAttributes,
  lastBodyBase,
  baseRemoved,
  unquotedInlineBackground,
  commentEndsAtArrow,
];

export const YAHOO_MODELS: Record<'yahoo-mail' | 'yahoo-mail-ios' | 'yahoo-mail-android' | 'aol', ClientModel> = {
  'yahoo-mail': { client: 'yahoo-mail', engine: 'Blink', checkedAt: CHECKED, behaviors: [...WEB, webDark] },
  'yahoo-mail-ios': {
    client: 'yahoo-mail-ios',
    engine: 'WebKit',
    checkedAt: CHECKED,
    behaviors: [
      yahooPrefix,
      commaMediaQuery,
      semicolonAttributeSelector,
      mediaFeatureFilter,
      imageClassRemoved,
      spacedImportantDisplay,
      multipleBackgrounds,
      bodyAttributes,
      lastBodyBase,
      baseRemoved,
      appDark,
    ],
  },
  'yahoo-mail-android': {
    client: 'yahoo-mail-android',
    engine: 'Blink',
    checkedAt: CHECKED,
    behaviors: [
      yahooPrefix,
      commaMediaQuery,
      semicolonAttributeSelector,
      mediaFeatureFilter,
      heightToMinHeight,
      imageClassRemoved,
      multipleBackgrounds,
      bodyAttributes,
      lastBodyBase,
      baseRemoved,
      commentEndsAtArrow,
      appDark,
    ],
  },
  aol: { client: 'aol', engine: 'Blink', checkedAt: CHECKED, behaviors: [...WEB, { ...webDark, id: 'aol-web-dark' }] },
};
