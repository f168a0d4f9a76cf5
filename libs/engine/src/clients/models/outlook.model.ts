import type {
  AdditionBehavior,
  ClientBehavior,
  ClientModel,
  DarkBehavior,
  DropBlockBehavior,
  ElementBehavior,
  PrefixBehavior,
  RewriteBehavior,
  SanitizeBehavior,
} from './client-behavior';
import { getAttribute } from '../../parse/dom';
import { escapeText } from '../../parse/html-escape';
import { bodyBase, browserBase } from './base-url';
import { caniemailNote } from './documented-limits.model';
import { PREFIXED_ATTRIBUTE_LIMIT, hasStrayCharacter, readsPrefixedAttribute } from './css-text';

/**
 * Outlook: classic Outlook for Windows renders with Microsoft Word (CSS support depends on the element);
 * Outlook.com and the new Outlook for Windows share a web sanitizer that prefixes names with `x_`; the
 * mobile and Mac apps share its parser quirks.
 */
const WORD_ENGINE_ARTICLE = {
  url: 'https://hteumeuleu.medium.com/making-sense-of-outlooks-rendering-engine-874a50f38357',
  title: "Rémi Parmentier, Making sense of Outlook's rendering engine (summarizing Microsoft's Word 2007 HTML and CSS Rendering Capabilities, 2006)",
  date: '2020-07',
};
const WORD_2007_MSDN = {
  url: 'https://learn.microsoft.com/en-us/previous-versions/office/developer/office-2007/aa338201(v=office.12)',
  title: 'Microsoft: Word 2007 HTML and CSS Rendering Capabilities in Outlook 2007',
  date: '2006',
  note: 'Read through the 2020 summary above; the table of CORE / COREEXTENDED / FULL property groups per element is the one modeled.',
};
const CANIEMAIL_PADDING = {
  url: 'https://www.caniemail.com/features/css-padding/',
  title: 'caniemail: padding (Outlook Windows: only on table cells)',
  date: '2019-07-25',
};
const CANIEMAIL_WIDTH = {
  url: 'https://www.caniemail.com/features/css-width/',
  title: 'caniemail: width (Outlook Windows: not on body, span, div, p, img)',
  date: '2019-09-27',
};
const CANIEMAIL_HEIGHT = {
  url: 'https://www.caniemail.com/features/css-height/',
  title: 'caniemail: height (Outlook Windows: not on body, span, div, p)',
  date: '2019-09-27',
};

const PADDING = ['padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left'];
const BORDER_SIDES = ['border-top', 'border-right', 'border-bottom', 'border-left'].flatMap((side) => [
  side,
  `${side}-color`,
  `${side}-width`,
  `${side}-style`,
]);

const wordPadding: ElementBehavior = {
  id: 'word-padding-table-cells',
  kind: 'element',
  properties: PADDING,
  honoredOn: new Set(['td', 'th']),
  summary: 'the Word engine honors padding on table cells (<td>, <th>) only.',
  evidence: [CANIEMAIL_PADDING, WORD_ENGINE_ARTICLE, WORD_2007_MSDN],
  suggestion: 'Put the padding on a <td> (wrap the content in a one-cell table).',
  fixture: {
    html: '<table><tr><td style="padding:20px">cell</td></tr></table><div style="padding:20px;color:#333333">block</div>',
    expect: {
      transformIncludes: ['<td style="padding:20px">', '<div style="color: #333333">'],
      finding: { rule: 'word-padding-table-cells', severity: 'warning' },
    },
  },
  counterFixture: {
    html: '<table><tr><td style="padding:20px">cell</td></tr></table>',
    expect: { transformIncludes: ['<td style="padding:20px">'], noFindingFor: 'padding' },
  },
};

const wordWidth: ElementBehavior = {
  id: 'word-width-elements',
  kind: 'element',
  properties: ['width'],
  ignoredOn: new Set(['body', 'span', 'div', 'p', 'img', 'a']),
  summary: 'the Word engine ignores CSS width on <body>, <span>, <div>, <p>, <a> and <img> (an <img> takes its width attribute).',
  evidence: [CANIEMAIL_WIDTH, WORD_ENGINE_ARTICLE, WORD_2007_MSDN],
  suggestion: 'Size with a table or a cell (width attribute and style), and give images a width attribute.',
  fixture: {
    html: '<table style="width:600px"><tr><td style="width:300px">a</td></tr></table><div style="width:300px;color:#333333">b</div>',
    expect: {
      transformIncludes: ['<table style="width:600px">', '<div style="color: #333333">'],
      finding: { rule: 'word-width-elements', severity: 'warning' },
    },
  },
};

const wordHeight: ElementBehavior = {
  id: 'word-height-elements',
  kind: 'element',
  properties: ['height'],
  ignoredOn: new Set(['body', 'span', 'div', 'p', 'a']),
  summary: 'the Word engine ignores CSS height on <body>, <span>, <div>, <p> and <a>.',
  evidence: [CANIEMAIL_HEIGHT, WORD_ENGINE_ARTICLE],
  suggestion: 'Set the height on a table cell (height attribute and style).',
  fixture: {
    html: '<table><tr><td style="height:40px">a</td></tr></table><p style="height:40px;color:#333333">b</p>',
    expect: { transformIncludes: ['<td style="height:40px">', '<p style="color: #333333">'], finding: { rule: 'word-height-elements' } },
  },
};

const wordBorderSides: ElementBehavior = {
  id: 'word-border-sides-elements',
  kind: 'element',
  properties: BORDER_SIDES,
  ignoredOn: new Set(['body', 'span', 'div', 'p', 'a']),
  summary: 'the Word engine ignores one-side borders (border-top, border-left, ...) on <body>, <span>, <div>, <p> and <a>; the border shorthand works there.',
  evidence: [WORD_ENGINE_ARTICLE, WORD_2007_MSDN],
  suggestion: 'Put one-side borders on a table cell, or use the border shorthand.',
  fixture: {
    html: '<p style="border-left:4px solid #ff0000;color:#333333">quote</p>',
    expect: { transformIncludes: ['<p style="color: #333333">'], finding: { rule: 'word-border-sides-elements' } },
  },
};

const wordMarginOnInline: ElementBehavior = {
  id: 'word-margin-elements',
  kind: 'element',
  properties: ['margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left'],
  ignoredOn: new Set(['body', 'span', 'a', 'img']),
  summary: 'the Word engine ignores margin on <body>, <span>, <a> and <img> (it works on <div>, <p>, headings and tables).',
  evidence: [
    WORD_ENGINE_ARTICLE,
    WORD_2007_MSDN,
    { url: 'https://www.caniemail.com/features/css-margin/', title: 'caniemail: margin (Outlook Windows notes)', date: '2019-08' },
  ],
  suggestion: "Space inline content with a table cell's padding, or put the margin on a block element.",
  fixture: {
    html: '<p style="margin:0 0 10px 0">p</p><span style="margin:10px;color:#333333">s</span>',
    expect: { transformIncludes: ['<p style="margin:0 0 10px 0">', '<span style="color: #333333">'], finding: { rule: 'word-margin-elements' } },
  },
};

const wordMaxWidth: ElementBehavior = {
  id: 'word-max-width-tables',
  kind: 'element',
  properties: ['max-width'],
  honoredOn: new Set(['table']),
  summary: 'the Word engine (Outlook 2019 and later) honors max-width on <table> only.',
  evidence: [
    { url: 'https://www.caniemail.com/features/css-max-width/', title: 'caniemail: max-width (Outlook Windows: only on <table>)', date: '2019-08-02' },
    WORD_ENGINE_ARTICLE,
  ],
  suggestion: 'Put max-width on a table, with an MSO ghost table of fixed width for older versions.',
  fixture: {
    html: '<table style="max-width:600px;width:100%"><tr><td>a</td></tr></table><div style="max-width:600px;color:#333333">b</div>',
    expect: { transformIncludes: ['max-width:600px;width:100%', '<div style="color: #333333">'], finding: { rule: 'word-max-width-tables' } },
  },
};

const wordInlineImportant: RewriteBehavior = {
  id: 'word-inline-important',
  kind: 'rewrite',
  severity: 'warning',
  label: 'inline !important',
  summary: 'the Word engine ignores an inline declaration marked !important (in <style> it works).',
  evidence: [
    {
      url: 'https://www.caniemail.com/features/css-important/',
      title: 'caniemail: !important (Outlook Windows: not supported inline; only with a space before)',
      date: '2021-11-30',
    },
    {
      url: 'https://github.com/milkshakesoftware/PreMailer.Net/issues/149',
      title: 'PreMailer.Net #149: Outlook 2007 and the inline !important declaration',
      date: '2023',
    },
  ],
  importantOnly: true,
  rewrite: (d, site) => (site.inline && d.important ? null : undefined),
  suggestion: 'Drop !important from inline styles; keep it for <style> rules that must beat inline ones.',
  fixture: {
    html: '<table><tr><td style="background-color:#ff0000 !important;color:#333333">x</td></tr></table>',
    expect: { transformIncludes: ['<td style="color: #333333">'], finding: { rule: 'word-inline-important' } },
  },
};

const wordGluedImportant: RewriteBehavior = {
  id: 'word-important-without-space',
  kind: 'rewrite',
  severity: 'warning',
  label: '!important without a space',
  summary: 'the Word engine reads "value!important" (no space) as part of the value, which invalidates the declaration (a font falls back to Times New Roman).',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/31',
      title: 'email-bugs #31: !important on font-family without a space invalidates the font in Outlook (open)',
      date: '2018-01-09',
    },
    {
      url: 'https://www.caniemail.com/features/css-important/',
      title: 'caniemail: !important (Outlook Windows: only supported with a space before)',
      date: '2021-11-30',
    },
  ],
  importantOnly: true,
  rewrite: (d, site) => (d.important && site.raw !== undefined && /[^\s]!\s*important$/i.test(site.raw) ? null : undefined),
  suggestion: 'Write a space before !important.',
  fixture: {
    html: '<html><head><style>.f{font-family:Arial!important;color:#333333}</style></head><body><p class="f">x</p></body></html>',
    expect: { transformIncludes: ['.f{color:#333333;}'], finding: { rule: 'word-important-without-space' } },
  },
};

const wordFirstClass: PrefixBehavior = {
  id: 'word-first-class-only',
  kind: 'prefix',
  firstClassOnly: true,
  summary: 'the Word engine reads only the first name of a class attribute; rules for the others never apply.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/75',
      title: 'email-bugs #75: Windows Outlook only respects the first class on an element (open)',
      date: '2020-01-20',
    },
    {
      url: 'https://www.caniemail.com/features/css-selector-chaining/',
      title: 'caniemail: chained selectors (Outlook Windows: first selector of the chain)',
      date: '2019-10-13',
    },
  ],
  fixture: {
    html: '<html><head><style>.up{text-transform:uppercase}.red{color:#ff0000}</style></head><body><p class="up red">Test</p></body></html>',
    expect: { transformIncludes: ['class="up"'], transformExcludes: ['class="up red"'] },
  },
};

const wordDark: DarkBehavior = {
  id: 'word-dark-full-inversion',
  kind: 'dark',
  model: 'full-inversion',
  summary: "classic Outlook for Windows inverts the email's colors in dark mode (full inversion) and gives the email no way to target it.",
  evidence: [
    {
      url: 'https://www.litmus.com/blog/the-ultimate-guide-to-dark-mode-for-email-marketers',
      title: 'Litmus: The ultimate guide to dark mode for email marketers',
      date: '2024',
    },
    {
      url: 'https://www.hteumeuleu.com/2021/emails-react-outlook-com-dark-mode/',
      title: "Rémi Parmentier, How do emails react to Outlook.com's dark mode",
      date: '2021-02-26',
    },
  ],
  fixture: {
    html: '<body><table><tr><td style="background-color:#111111;color:#eeeeee">x</td></tr></table></body>',
    expect: { darkExcludes: ['background-color:#111111', 'color:#eeeeee'] },
  },
};

/**
 * Outlook.com deletes a compound that is only an attribute selector (`[owa] .x` -> `.x`, the "[owa]" hack
 * that targets Outlook.com): email-bugs #38, still open. caniemail's 2024 data says simple attribute
 * selectors now work; the open report is modeled and the dispute noted in the evidence.
 */
function withoutBareAttributeCompounds(selector: string): string {
  return selector
    .split(',')
    .map((part) =>
      part
        .replace(/(^|[\s>+~])(?:\[[^\]]*\])+(?=\s|$)/g, '$1')
        .replace(/\s*([>+~])\s*(?=[>+~]|$)/g, ' ')
        .trim(),
    )
    .join(',');
}

const owaPrefix: PrefixBehavior = {
  id: 'owa-class-id-prefix',
  kind: 'prefix',
  classPrefix: 'x_',
  idPrefix: 'x_',
  summary:
    'Outlook.com prefixes every class and id with x_ in the markup and in <style>; in a chain (.a.b) only the first class gets the prefix, so chained rules never match.',
  evidence: [
    {
      url: 'https://www.hteumeuleu.com/2016/what-you-need-to-know-about-the-new-outlook-com/',
      title: 'Rémi Parmentier, What you need to know about the new Outlook.com',
      date: '2016-03-24',
    },
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/61',
      title: 'email-bugs #61: outlook.com only prefixes the first selector in a chain (open)',
      date: '2019-07-02',
    },
    {
      url: 'https://www.caniemail.com/features/css-selector-chaining/',
      title: 'caniemail: chained selectors (Outlook.com: only the first is prefixed)',
      date: '2024-01',
    },
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/38',
      title: 'email-bugs #38: Outlook.com incorrectly filters attribute selectors ([owa] .foo becomes .foo; open)',
      date: '2018-04-16',
      note: 'caniemail (2024-01) reports simple attribute selectors as partly supported: disputed; the open report is modeled.',
    },
  ],
  // `.x_a.x_b` -> `.x_a.b`: only the first class of a compound keeps the prefix.
  selectorLimit: (selector) => {
    if (/\.[-_a-zA-Z][-\w]*\.[-_a-zA-Z]/.test(selector)) return 'a chain of classes keeps the prefix on its first class only';
    if (/(?:^|[\s>+~])(?:\[[^\]]*\])+(?=\s|$)/.test(selector)) return 'a compound that is only an attribute selector is removed';
    return readsPrefixedAttribute(selector) ? PREFIXED_ATTRIBUTE_LIMIT : undefined;
  },
  rewriteSelector: (selector) =>
    withoutBareAttributeCompounds(selector.replace(/(\.x_[-\w]+)((?:\.x_[-\w]+)+)/g, (_, first: string, rest: string) => first + rest.replace(/\.x_/g, '.'))),
  fixture: {
    html: '<html><head><style>.btn{color:#ff0000}.first.second{font-weight:bold}[owa] .hack{color:#0000ff}</style></head><body><a class="btn" id="cta" href="https://example.com">Go</a><p class="first second hack">x</p></body></html>',
    expect: {
      transformIncludes: ['class="x_btn"', 'id="x_cta"', '.x_btn{', 'class="x_first x_second x_hack"', '.x_hack{color:#0000ff;}'],
      transformExcludes: ['.first.second{', '.x_first.x_second{', '[owa]'],
    },
  },
};

const owaDoubleBrace: DropBlockBehavior = {
  id: 'owa-double-brace',
  kind: 'drop-block',
  scope: 'rest',
  severity: 'warning',
  summary: 'Outlook.com and the Outlook apps drop every rule after two closing braces with nothing between them (}}), as minified @media blocks end.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/92',
      title: 'email-bugs #92: Outlook.com and Outlook on iOS and Android remove styles after two closing accolades (open)',
      date: '2021-06-11',
    },
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/147',
      title: 'email-bugs #147: Outlook iOS and Android ignore CSS after a @media closed without a space',
      date: '2025-06-25',
    },
  ],
  find: ({ sheet }) => {
    const at = sheet.text.indexOf('}}');
    if (at < 0) return undefined;
    const next = sheet.root.nodes.find((node) => (node.source?.start?.offset ?? -1) > at);
    return next ? { node: next, label: '}} in <style>' } : undefined;
  },
  suggestion: 'Put a space or a line break between closing braces (} }); most minifiers have an option for it.',
  fixture: {
    html: '<html><head><style>@media screen{div{color:#ffffff}}.foo{background:#00ff00}</style></head><body><div class="foo">x</div></body></html>',
    expect: { transformExcludes: ['#00ff00'], finding: { rule: 'owa-double-brace' } },
  },
};

const owaStrayCharacter: RewriteBehavior = {
  id: 'owa-invalid-character-attribute',
  kind: 'rewrite',
  severity: 'warning',
  label: 'style attribute with an invalid character',
  summary: 'Outlook.com empties a whole style attribute when a declaration holds a character its filter rejects (=, *, $, |, ?, <, >, braces, brackets).',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/19',
      title: 'email-bugs #19: Outlook.com removes styles that include special characters (open)',
      date: '2016-07-20',
      note: 'The report also lists . / % ( ) & @ \\, which every email uses (decimals, rgb(), font shorthands) and Outlook.com shows today: only the rarer characters are modeled.',
    },
  ],
  dropsStyleAttribute: hasStrayCharacter,
  suggestion: 'Remove the stray character (filters such as alpha(opacity=50) are what usually carries it).',
  fixture: {
    html: '<div style="background:#3cbc67; filter:alpha(opacity=50); font-size:32px;">foo</div>',
    expect: { transformIncludes: ['<div>foo</div>'], finding: { rule: 'owa-invalid-character-attribute' } },
  },
};

/** A link target Outlook.com keeps: a URL with a scheme (https:, mailto:, tel:) or an anchor in the message (#name). */
const LINK_TARGET = /^(?:[a-z][a-z0-9+.-]*:|#)/i;

const owaLinkWithoutUrl: SanitizeBehavior = {
  id: 'owa-link-without-url',
  kind: 'sanitize',
  severity: 'warning',
  unwrapsElements: new Set(['a']),
  // A relative href under a <base> is written absolute first (caniemail html-base note 1): it stays a link.
  sanitizesWhen: (element, parsed) => {
    const href = (getAttribute(element, 'href') ?? '').trim();
    return !LINK_TARGET.test(href) && !(href && browserBase(parsed));
  },
  unwrappedText: (element) => {
    const href = (getAttribute(element, 'href') ?? '').trim();
    return href ? `[${escapeText(href)}]` : undefined;
  },
  summary:
    'Outlook.com removes a link whose href is empty, missing or not a URL (its text stays, no longer a link); a non-URL href is printed in brackets before the text.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/10',
      title: 'email-bugs #10: Office 365 and Outlook.com strip <a> tags with empty or invalid href attributes (open)',
      date: '2018-03-15',
      note: 'A 2018 comment adds that the styles of such a link move to the next element with a style attribute; that transfer is not modeled. A link without any href is treated as an empty one (the example the comment cites has none).',
    },
    {
      url: 'https://github.com/mjmlio/mjml/issues/827',
      title: 'mjml #827: a link to google.com without a scheme shows as [google.com]Read news in Outlook.com',
      date: '2017-10-06',
    },
  ],
  suggestion: 'Give every link a full URL (https://…); a placeholder href ({{url}}, a bare domain) is printed in brackets.',
  fixture: {
    html: '<p><a href="" style="color:#102030">Hello</a> and <a href="example.com/page">world</a></p>',
    expect: {
      transformIncludes: ['<p>Hello and [example.com/page]world</p>'],
      transformExcludes: ['<a '],
      finding: { rule: 'owa-link-without-url' },
    },
  },
  // Links with a scheme or to an anchor stay links, with no note.
  counterFixture: {
    html: '<p><a href="https://example.com/a">x</a> <a href="mailto:a@example.com">y</a> <a href="#top">z</a></p>',
    expect: { transformIncludes: ['example.com/a', 'mailto:a@example.com', 'href="#top"'], noFindingFor: 'owa-link-without-url' },
  },
};

const owaDark: DarkBehavior = {
  id: 'owa-dark-partial',
  kind: 'dark',
  model: 'partial-inversion',
  summary:
    'Outlook.com darkens light backgrounds and lightens dark text, marking what it changed with data-ogsc / data-ogsb attributes that [data-ogsc] rules can target.',
  evidence: [
    {
      url: 'https://www.hteumeuleu.com/2021/emails-react-outlook-com-dark-mode/',
      title: "Rémi Parmentier, How do emails react to Outlook.com's dark mode",
      date: '2021-02-26',
    },
    {
      url: 'https://www.litmus.com/blog/the-ultimate-guide-to-dark-mode-for-email-marketers',
      title: 'Litmus: The ultimate guide to dark mode for email marketers',
      date: '2024',
    },
  ],
  fixture: { html: '<body><table><tr><td style="background-color:#ffffff;color:#000000">x</td></tr></table></body>', expect: { darkIncludes: ['data-ogsb'] } },
};

const appsDark: DarkBehavior = {
  ...owaDark,
  id: 'outlook-apps-dark-partial',
  summary:
    'the Outlook apps (iOS, Android, Mac) darken light backgrounds and lighten dark text (partial inversion), marking what they recolor with data-ogsc / data-ogsb as Outlook.com does.',
  evidence: [
    ...owaDark.evidence,
    {
      url: 'https://www.caniemail.com/features/css-at-media-prefers-color-scheme/',
      title: 'caniemail: @media (prefers-color-scheme), note 3 (the Outlook apps add data-ogsc, data-ogac, data-ogsb, data-ogab in dark mode)',
      date: '2023-03-08',
    },
  ],
  fixture: {
    html: '<body><table><tr><td style="background-color:#ffffff;color:#000000">x</td><td style="background-color:#111111;color:#eeeeee">y</td></tr></table></body>',
    expect: {
      darkExcludes: ['background-color:#ffffff'],
      darkIncludes: ['style="background-color:#111111;color:#eeeeee"', 'data-ogsb'],
    },
  },
};

const CHECKED = '2026-11-27';
const WORD: readonly ClientBehavior[] = [
  wordPadding,
  wordWidth,
  wordHeight,
  wordBorderSides,
  wordMarginOnInline,
  wordMaxWidth,
  wordInlineImportant,
  wordGluedImportant,
  wordFirstClass,
  wordDark,
];

const macFixedTableLayout: AdditionBehavior = {
  id: 'outlook-mac-fixed-table-layout',
  kind: 'addition',
  severity: 'info',
  summary: 'Outlook for Mac forces table-layout: fixed on every table: column widths come from the first row and the table width, not from the content.',
  evidence: [
    {
      url: 'https://www.caniemail.com/features/css-table-layout/',
      title: 'caniemail: table-layout (Outlook macOS 16.80, note 1: all tables forced to fixed)',
      date: '2022-07-20',
    },
  ],
  addsDeclarations: { on: ['table'], declarations: [{ property: 'table-layout', value: 'fixed', important: true }] },
  disabledBy: () => false,
  restyledBy: () => false,
  suggestion: 'Give the first row of each table the column widths it needs (width attributes on its cells).',
  fixture: {
    html: '<table style="table-layout:auto;width:600px"><tr><td>x</td></tr></table>',
    expect: {
      transformIncludes: ['<head><style>table{table-layout:fixed !important}'],
      finding: { rule: 'outlook-mac-fixed-table-layout' },
    },
  },
  // An email that sets no table-layout gets the forced one in its markup, and no note.
  counterFixture: {
    html: '<table width="600"><tr><td>x</td></tr></table>',
    expect: { transformIncludes: ['<head><style>table{table-layout:fixed !important}'], noFindingFor: 'outlook-mac-fixed-table-layout' },
  },
};

const macClassPrefix: PrefixBehavior = {
  id: 'outlook-mac-class-prefix',
  kind: 'prefix',
  classPrefix: 'x_',
  summary:
    'Outlook for Mac prefixes every class with x_ in the markup and in its class selectors; an attribute selector on class keeps the name as written, so it no longer matches.',
  evidence: [caniemailNote('css-selector-attribute#3', 'class="test" becomes class="x_test", [class="test"] stays unprefixed')],
  selectorLimit: (selector) => (readsPrefixedAttribute(selector) ? PREFIXED_ATTRIBUTE_LIMIT : undefined),
  fixture: {
    html: '<html><head><style>.btn{color:#ff0000}[class="note"]{font-weight:bold}</style></head><body><a class="btn" href="https://example.com">Go</a><p class="note">x</p></body></html>',
    expect: { transformIncludes: ['class="x_btn"', '.x_btn{', 'class="x_note"', '[class="note"]'] },
  },
};

const iosFirstBodyBase: SanitizeBehavior = {
  id: 'outlook-ios-base-first-in-body',
  kind: 'sanitize',
  severity: 'warning',
  resolvesUrlsAgainst: bodyBase('first'),
  summary:
    'Outlook for iOS resolves relative links and images against the first <base> in the body, not the first of the document (one in the head loses), then removes the <base>.',
  evidence: [caniemailNote('html-base#2', 'the first <base> in <body>'), caniemailNote('html-base#1', 'removed, URLs turned into absolute links')],
  suggestion: 'Write absolute URLs, or keep a single <base>.',
  fixture: {
    html: '<html><head><base href="https://a.example.com/"></head><body><base href="https://b.example.com/"><a href="page">x</a></body></html>',
    expect: { transformIncludes: ['href="https://b.example.com/page"'], finding: { rule: 'outlook-ios-base-first-in-body' } },
  },
  // One base: the same URL as in a browser, written absolute, and no note.
  counterFixture: {
    html: '<html><head><base href="https://a.example.com/"></head><body><a href="page">x</a></body></html>',
    expect: { transformIncludes: ['href="https://a.example.com/page"'], noFindingFor: 'outlook-ios-base-first-in-body' },
  },
};

const appsCellspacingZero: AdditionBehavior = {
  id: 'outlook-apps-cellspacing-zero',
  kind: 'addition',
  severity: 'warning',
  summary: 'Outlook for Mac and Outlook for iOS draw every table as if cellspacing were 0, whatever value the email gives (cellpadding and border still work).',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/124',
      title: 'email-bugs #124: Outlook for Mac/iOS is not rendering cellspacing (open)',
      date: '2023-01-26',
      note: 'The report covers tables that set cellspacing; a table without it is modeled with 0 too (the Outlook iOS markup quoted in email-bugs #112 carries border-spacing: 0px on a table that sets none).',
    },
  ],
  addsAttributes: { on: ['table'], attributes: [{ name: 'cellspacing', value: '0' }] },
  disabledBy: () => false,
  restyledBy: () => false,
  suggestion: 'Space cells with padding (cellpadding, or padding on the cells) or spacer cells instead of cellspacing.',
  fixture: {
    html: '<table cellspacing="10" cellpadding="4"><tr><td>a</td><td>b</td></tr></table>',
    expect: { transformIncludes: ['cellspacing="0"'], transformExcludes: ['cellspacing="10"'], finding: { rule: 'outlook-apps-cellspacing-zero' } },
  },
  // cellspacing="0" is what the apps draw anyway: no note.
  counterFixture: {
    html: '<table cellspacing="0" cellpadding="4"><tr><td>a</td></tr></table>',
    expect: { transformIncludes: ['cellspacing="0"'], noFindingFor: 'outlook-apps-cellspacing-zero' },
  },
};

export const OUTLOOK_MODELS: Record<
  'outlook-web' | 'outlook-windows' | 'outlook-windows-legacy' | 'outlook-macos' | 'outlook-ios' | 'outlook-android',
  ClientModel
> = {
  'outlook-web': {
    client: 'outlook-web',
    engine: 'Blink',
    checkedAt: CHECKED,
    behaviors: [owaPrefix, owaDoubleBrace, owaStrayCharacter, owaLinkWithoutUrl, owaDark],
  },
  'outlook-windows': {
    client: 'outlook-windows',
    engine: 'Blink',
    checkedAt: CHECKED,
    behaviors: [owaPrefix, owaDoubleBrace, owaStrayCharacter, owaLinkWithoutUrl, owaDark],
  },
  'outlook-windows-legacy': { client: 'outlook-windows-legacy', engine: 'Word', checkedAt: CHECKED, behaviors: WORD },
  'outlook-macos': {
    client: 'outlook-macos',
    engine: 'WebKit',
    checkedAt: CHECKED,
    behaviors: [macClassPrefix, macFixedTableLayout, appsCellspacingZero, appsDark],
  },
  'outlook-ios': { client: 'outlook-ios', engine: 'WebKit', checkedAt: CHECKED, behaviors: [owaDoubleBrace, appsCellspacingZero, iosFirstBodyBase, appsDark] },
  'outlook-android': { client: 'outlook-android', engine: 'Blink', checkedAt: CHECKED, behaviors: [owaDoubleBrace, appsDark] },
};
