import type { ClientId } from '../email-client';
import type { AdditionBehavior, ClientBehavior, DropBlockBehavior, PrefixBehavior, RewriteBehavior, SanitizeBehavior } from './client-behavior';
import type { HtmlText } from '../../parse/dom';
import { isElement } from '../../parse/dom';
import { matchesSelector, parseSelector, splitSelectorList } from '../../parse/css-selector';
import type { ParsedEmail } from '../../parse/parse-email';
import type { Root } from 'postcss';
import { escapeAttributeValue, escapeText } from '../../parse/html-escape';
import { mediaFeatures } from './css-text';
import { caniemailNote } from './documented-limits.model';
import { YAHOO_SCOPE } from './yahoo.model';

/**
 * Behaviours of the inventory's fifth pass (docs/clients.md, "Fifth pass"): gap rows of caniemail's notes and
 * email-bugs that an existing hook can express once the fact is pinned down — HEY's unsupported elements, the
 * Word engine's `dir` on links, percentage image sizes and `<style>` order, Yahoo's class names with leading or
 * trailing underscores and dashes. Each reads only elements or selectors that carry what it is about, so an email
 * without them costs nothing more. Facts come from the notes and threads cited; fixtures are our own. Appended
 * to each family's model by client-models.ts, after inventory-gaps.model.ts.
 */

// ----- HEY -----

const HEY_SEMANTIC_TAGS = ['article', 'aside', 'header', 'main', 'nav', 'section', 'summary'];

/** HEY does not support the HTML5 sectioning elements (caniemail html-semantics note 5): the tags go, their content stays. */
const heySemanticElements: SanitizeBehavior = {
  id: 'hey-semantic-elements-unwrapped',
  kind: 'sanitize',
  severity: 'info',
  unwrapsElements: new Set(HEY_SEMANTIC_TAGS),
  summary:
    'HEY does not support <article>, <aside>, <header>, <main>, <nav>, <section> and <summary>: the tags are removed and their content is kept (styles and roles set on them are lost).',
  evidence: [
    {
      ...caniemailNote('html-semantics#5', 'article, aside, header, main, nav, section, summary not supported'),
      note: 'Doubtful (fidelity review, 2026-12-07): the note says "not supported" without saying what happens to the tags. caniemail\'s test (tests/html-semantics.html) gives each element its label text and an inline green background, and a lost text would have been noted, so the text stays; whether the tags are stripped or kept without their styles is not said. Modeled as the sanitizer allowlists do it (the tags go, the content stays); caniemail\'s partial flag gives the finding.',
    },
  ],
  suggestion: 'Use <div> and <table> for structure, and put styles and roles on them, not on sectioning elements.',
  fixture: {
    html: '<section style="padding:8px"><header><p>Title</p></header><p>Body</p></section>',
    expect: { transformIncludes: ['<p>Title</p>', '<p>Body</p>'], transformExcludes: ['<section', '<header'] },
  },
  // A <div> holds the same content as written.
  counterFixture: {
    html: '<div style="padding:8px"><p>Title</p></div>',
    expect: { transformIncludes: ['<div style="padding:8px"><p>Title</p></div>'], noFindingFor: 'hey-semantic-elements-unwrapped' },
  },
};

/** HEY supports caption-side but not the <caption> element (caniemail css-caption-side note 1). */
const heyCaption: SanitizeBehavior = {
  id: 'hey-caption-unwrapped',
  kind: 'sanitize',
  severity: 'info',
  unwrapsElements: new Set(['caption']),
  summary:
    "HEY does not support the <caption> element: the tag is removed and its text is kept, outside the table's caption box (caption-side has nothing to place).",
  evidence: [
    {
      ...caniemailNote('css-caption-side#1', 'the <caption> element is not supported'),
      note: "Doubtful (fidelity review, 2026-12-07): caniemail's test (tests/css-caption-side.html) holds only an unstyled <caption>caption</caption>, and the note does not say whether the text went too. Modeled as the tag removed with its text kept (what an allowlist sanitizer does).",
    },
  ],
  suggestion: 'Write a table title as a paragraph or a first row, not as a <caption>.',
  fixture: {
    html: '<table><caption style="caption-side:bottom">Prices</caption><tr><td>x</td></tr></table>',
    expect: { transformIncludes: ['Prices'], transformExcludes: ['<caption'], finding: { rule: 'hey-caption-unwrapped' } },
  },
  counterFixture: {
    html: '<table><tr><td style="font-weight:bold">Prices</td></tr></table>',
    expect: { transformIncludes: ['Prices'], noFindingFor: 'hey-caption-unwrapped' },
  },
};

/** HEY nests a <blockquote> in a collapsed <details> (caniemail html-blockquote note 1). */
const heyBlockquoteDetails: SanitizeBehavior = {
  id: 'hey-blockquote-in-details',
  kind: 'sanitize',
  severity: 'warning',
  summary: 'HEY puts every <blockquote> inside a <details> element, collapsed: the quoted content is hidden until the reader opens it.',
  evidence: [
    {
      ...caniemailNote('html-blockquote#1', 'blockquotes nested in a <details> element'),
      note: "The note does not say whether the <details> is open; modeled closed (no open attribute), as a collapsed quote is what the wrapping is for. caniemail's partial flag gives the finding.",
    },
  ],
  writesBefore: { on: ['blockquote'], before: () => '<details>', after: '</details>' },
  suggestion: 'Do not put content the reader must see in a <blockquote>: use a <div> or a table cell with a left border for quotes.',
  fixture: {
    html: '<p>intro</p><blockquote>quoted</blockquote>',
    // caniemail's partial flag for <blockquote> in HEY gives the finding (with this note).
    expect: { transformIncludes: ['<details><blockquote>quoted</blockquote></details>'] },
  },
  counterFixture: {
    html: '<div style="border-left:2px solid #102030">quoted</div>',
    expect: { transformExcludes: ['<details>'], noFindingFor: 'hey-blockquote-in-details' },
  },
};

// ----- The Word engine (classic Outlook for Windows) -----

/** The Word engine mishandles dir on links (caniemail html-dir note 3): modeled as the attribute ignored there. */
const wordDirOnLinks: RewriteBehavior = {
  id: 'word-dir-on-links-ignored',
  kind: 'rewrite',
  severity: 'info',
  label: 'dir on <a>',
  summary:
    'The Word engine is buggy with dir on a link (<a dir>): do not rely on it (modeled as the attribute not applied: the link text keeps the direction of its paragraph).',
  evidence: [
    {
      ...caniemailNote('html-dir#3', 'buggy on <a>'),
      note: 'Doubtful (fidelity review, 2026-12-07): caniemail says only "buggy on anchor tags", and its direction test (tests/css-direction.html) has no <a dir> case, so what the bug does is unknown; modeled as the attribute not applied on <a> (it works on block elements and cells).',
    },
  ],
  dropsAttributesOn: ['a'],
  dropsAttributes: (element) => (element.attrs.some((a) => !a.prefix && a.name === 'dir') ? ['dir'] : []),
  suggestion: 'Set dir on the paragraph or the cell that holds the link, not on the <a>.',
  fixture: {
    html: '<p><a href="https://example.com/a" dir="rtl">שלום</a></p>',
    expect: { transformExcludes: ['dir="rtl"'], finding: { rule: 'word-dir-on-links-ignored' } },
  },
  counterFixture: {
    html: '<p dir="rtl"><a href="https://example.com/a">שלום</a></p>',
    expect: { transformIncludes: ['<p dir="rtl">'], noFindingFor: 'word-dir-on-links-ignored' },
  },
};

const PERCENT = /%\s*$/;

/** Percentage width and height attributes on images are read against the image file, not the parent (caniemail html-width/html-height note 1). */
const wordPercentImageSize: RewriteBehavior = {
  id: 'word-percent-image-size',
  kind: 'rewrite',
  severity: 'warning',
  label: 'percentage size on <img>',
  summary:
    'The Word engine reads a percentage width or height attribute on an <img> against the image file\'s own size, not the parent\'s: width="100%" does not fill the cell (modeled as the attribute not applied: the image keeps its file size).',
  evidence: [
    {
      ...caniemailNote('html-width#1', "percentage width on <img> based on the file's width"),
      note: "Exact for 100% (the file's own size); for another percentage Word draws that share of the file's size, which markup without the file cannot show: the attribute is dropped all the same, so the image is drawn larger than Word draws it.",
    },
    caniemailNote('html-height#1', "percentage sizes on <img> based on the file's size"),
  ],
  dropsAttributesOn: ['img'],
  dropsAttributes: (element) =>
    element.attrs.filter((a) => !a.prefix && (a.name === 'width' || a.name === 'height') && PERCENT.test(a.value)).map((a) => a.name),
  suggestion: 'Give images a pixel width attribute for Outlook (width="600") and the percentage in CSS (style="width:100%") for the others.',
  fixture: {
    html: '<table width="600"><tr><td><img src="https://example.com/a.png" width="100%" alt="A"></td></tr></table>',
    expect: { transformExcludes: ['width="100%"'], finding: { rule: 'word-percent-image-size' } },
  },
  counterFixture: {
    html: '<table width="600"><tr><td><img src="https://example.com/a.png" width="600" alt="A"></td></tr></table>',
    expect: { transformIncludes: ['width="600" alt="A"'], noFindingFor: 'word-percent-image-size' },
  },
};

/** display values other than none (flex and grid are left to caniemail's own unsupported flags). */
const DISPLAY_NOT_NONE = /^(?:block|inline|inline-block|inline-table|table|table-[a-z-]+|list-item|flow-root|contents|run-in)$/i;

/** The Word engine reads display:none only (caniemail css-display note 5; email-bugs #78: a <td> cannot be made a block). */
const wordDisplayOnlyNone: RewriteBehavior = {
  id: 'word-display-only-none',
  kind: 'rewrite',
  severity: 'info',
  label: 'display other than none',
  summary:
    'The Word engine reads display:none only: display:block, inline-block or table values change nothing (a <td> with display:block stays a cell beside the others, a link or a span does not become a block).',
  evidence: [
    caniemailNote('css-display#5', 'only display:none is supported'),
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/78',
      title: 'email-bugs #78: Outlook on Windows cannot make a <td> display:block (open)',
      date: '2019',
    },
  ],
  properties: ['display'],
  valueMatches: DISPLAY_NOT_NONE,
  rewrite: (d) => (d.property === 'display' && DISPLAY_NOT_NONE.test(d.value.trim()) ? null : undefined),
  suggestion: 'Stack columns for Outlook with conditional tables (<!--[if mso]>) instead of display:block on cells.',
  fixture: {
    html: '<table><tr><td class="col" style="display:block;width:300px">a</td><td style="display:block;width:300px">b</td></tr></table>',
    expect: { transformExcludes: ['display:block', 'display: block'], finding: { rule: 'word-display-only-none' } },
  },
  counterFixture: {
    html: '<table><tr><td style="display:none">a</td><td>b</td></tr></table>',
    expect: { transformIncludes: ['display:none'], noFindingFor: 'word-display-only-none' },
  },
};

/** An element start tag other than <style> (comments, end tags and text do not count). */
const ELEMENT_BEFORE = /<(?!style[\s>/]|\/|!)[a-z]/i;

/**
 * Whether a rule of the block matches an element that starts before it (offset `at`): a block after a wrapper
 * `<div>` that styles only what follows it loses nothing. A selector a static document cannot match (`:hover`)
 * counts as matching.
 */
function stylesElementBefore(root: Root, parsed: ParsedEmail, at: number): boolean {
  const before = parsed.elements.filter((e) => (e.sourceCodeLocation?.startOffset ?? Infinity) < at);
  let found = false;
  root.walkRules((rule) => {
    if (found) return false;
    for (const text of splitSelectorList(rule.selector)) {
      const selector = parseSelector(text);
      if (!selector.matchable || before.some((e) => matchesSelector(e, selector, parsed.matchContext))) {
        found = true;
        return false;
      }
    }
    return undefined;
  });
  return found;
}

/** The Word engine applies a <style> block only to what follows it (caniemail html-style note 4). */
const wordStyleAfterContent: DropBlockBehavior = {
  id: 'word-style-after-content',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary:
    'The Word engine applies a <style> block only to the elements that follow it: a block placed in <body> after the content it styles does not apply to that content (modeled as the block not applied).',
  evidence: [
    {
      ...caniemailNote('html-style#4', '<style> must be declared before the rules are used'),
      note: 'The note implies the block still styles what follows it: the rule fires only when one of its rules matches an element before the block (fidelity review, 2026-12-07), but a drop-block rule drops the whole block, so an element after a block placed mid-<body> also loses its rules in the transform.',
    },
  ],
  find: ({ sheet, inBody, parsed }) => {
    if (!inBody) return undefined;
    const at = sheet.element.sourceCodeLocation?.startOffset;
    if (at === undefined) return undefined;
    const body = parsed.elementsByTag.get('body')?.[0];
    const from = body?.sourceCodeLocation?.startTag?.endOffset ?? 0;
    if (from >= at || !ELEMENT_BEFORE.test(parsed.source.slice(from, at))) return undefined;
    return stylesElementBefore(sheet.root, parsed, at) ? { label: '<style> after the content it styles' } : undefined;
  },
  suggestion: 'Put <style> in <head> (or at the very start of <body>), before the elements it styles.',
  fixture: {
    html: '<html><head></head><body><p class="a">x</p><style>.a{color:#102030}</style></body></html>',
    expect: { transformExcludes: ['#102030'], finding: { rule: 'word-style-after-content' } },
  },
  // A block at the start of <body>, before what it styles, applies (so does one after a wrapper it does not style).
  counterFixture: {
    html: '<html><head></head><body><style>.a{color:#102030}</style><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['#102030'], noFindingFor: 'word-style-after-content' },
  },
};

// ----- Gmail for iOS -----

/** Gmail for iOS sets word-spacing:1px on the message (email-bugs #80; the fix MJML ships). */
const gmailIosWordSpacing: AdditionBehavior = {
  id: 'gmail-ios-word-spacing',
  kind: 'addition',
  severity: 'info',
  summary:
    "Gmail for iOS sets word-spacing: 1px on the message in its own style sheet: the white space between inline-block columns keeps 1px even under font-size:0, so two 50% columns no longer fit side by side (the email's own word-spacing on <body> wins).",
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/80',
      title: 'email-bugs #80: Gmail and display:inline-block (the space between columns forced despite font-size:0; open)',
      date: '2020-05-28',
    },
    {
      url: 'https://github.com/mjmlio/mjml/pull/2049',
      title: 'mjml #2049: Gmail for iOS adds word-spacing: 1px to the body; word-spacing:normal on <body> fixes the stacked columns',
      date: '2020-10-02',
    },
  ],
  addsDeclarations: { on: ['body'], declarations: [{ property: 'word-spacing', value: '1px', important: false }] },
  disabledBy: () => false,
  restyledBy: () => false,
  suggestion: 'Set word-spacing:normal on <body> (or remove the white space between the columns with HTML comments).',
  fixture: {
    html: '<html><head></head><body><div style="font-size:0"><div style="display:inline-block;width:50%;font-size:16px">A</div> <div style="display:inline-block;width:50%;font-size:16px">B</div></div></body></html>',
    expect: { transformIncludes: ['body{word-spacing:1px}'] },
  },
  // The email's own word-spacing on <body> wins over the client's rule: no note.
  counterFixture: {
    html: '<html><head></head><body style="word-spacing:normal"><p>x</p></body></html>',
    expect: { transformIncludes: ['word-spacing:normal'], noFindingFor: 'gmail-ios-word-spacing' },
  },
};

// ----- Yahoo and AOL -----

/**
 * A class selector as Yahoo writes it (after its yiv prefix) whose name began with `_` or `-`, or ends with two
 * underscores: Yahoo mangles these (email-bugs #22), so the rule matches nothing.
 */
const MANGLED_CLASS = new RegExp(`\\.${YAHOO_SCOPE}[-_]|\\.${YAHOO_SCOPE}[-\\w]*__(?![-\\w])`);

/** Yahoo's rewrite loses rules for class names with leading underscores or dashes, or trailing double underscores. */
const yahooMangledClassNames: PrefixBehavior = {
  id: 'yahoo-mangled-class-names',
  kind: 'prefix',
  summary:
    'Yahoo and AOL mangle class names that start with underscores or dashes (the dot and the leading characters are removed from the rule) or end with two underscores (one is removed): the rule no longer matches its elements.',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/22',
      title: "email-bugs #22: Yahoo doesn't support certain class names starting or ending with underscores and dashes (open)",
      date: '2016-10-21',
      note: "Modeled as the rules dropped: each mangled selector matches no element (.__foo becomes the type selector foo, .foo__ becomes .foo_, and a class starting with a dash is also removed from the markup, which is not modeled since its rule is dropped anyway). Reviewed 2026-12-07 against the issue: exactly those three cases (leading underscores, leading dashes, two or more trailing underscores). The issue names Yahoo's webmail and apps (2016); AOL is given the rule because it now runs on Yahoo's mail platform, which the issue does not test. A prefix rule gives no finding, so the reader is not told.",
    },
  ],
  rewriteSelector: (selector) => {
    if (!selector.includes(`.${YAHOO_SCOPE}`) || !MANGLED_CLASS.test(selector)) return selector;
    const kept = selector.split(',').filter((part) => !MANGLED_CLASS.test(part));
    return kept.length > 0 ? kept.join(',') : null;
  },
  fixture: {
    html: '<html><head><style>.__lead{color:#ff0000}.block__{color:#00ff00}.ok{color:#0000ff}</style></head><body><p class="__lead block__ ok">x</p></body></html>',
    expect: { transformExcludes: ['#ff0000', '#00ff00'], transformIncludes: ['#0000ff'] },
  },
  // BEM names with inner underscores and dashes are prefixed as usual.
  counterFixture: {
    html: '<html><head><style>.card__title--big{color:#ff0000}</style></head><body><p class="card__title--big">x</p></body></html>',
    expect: { transformIncludes: ['#ff0000'] },
  },
};

// ----- Vendor pages and open-source code -----

const GMAIL_CSS_PAGE = {
  url: 'https://developers.google.com/workspace/gmail/design/css',
  title: 'Google: CSS support in Gmail (media types all and screen; queries on width, device width, orientation and resolution)',
  date: '2025',
};
/** The media features Gmail's page lists (with the and/only keywords and the all/screen types). */
const GMAIL_MEDIA_FEATURES = new Set([
  'width',
  'min-width',
  'max-width',
  'device-width',
  'min-device-width',
  'max-device-width',
  'orientation',
  'resolution',
  'min-resolution',
  'max-resolution',
]);
/**
 * Features another rule decides: the height family (gmail-height-media-queries) and those caniemail tracks for
 * Gmail (its support layer drops them), so that this rule adds no second finding.
 */
const GMAIL_MEDIA_DECIDED_ELSEWHERE =
  /^(?:(?:min-|max-)?(?:device-)?(?:height|aspect-ratio)|prefers-color-scheme|prefers-reduced-motion|hover|-webkit-(?:min-|max-)?device-pixel-ratio|(?:min-|max-)?device-pixel-ratio)$/;
const MEDIA_TYPES = /\b(print|speech|tv|handheld|projection|braille|embossed|aural|tty)\b/i;

/** Whether one query of a media query list uses only what Gmail's page lists. */
function gmailMediaQuerySupported(query: string): boolean {
  const outside = query.replace(/\([^)]*\)/g, ' ');
  if (MEDIA_TYPES.test(outside)) return false;
  return mediaFeatures(query).every((f) => GMAIL_MEDIA_FEATURES.has(f) || GMAIL_MEDIA_DECIDED_ELSEWHERE.test(f));
}

const GMAIL_MEDIA_MEMO = new Map<string, boolean>();

/** Gmail applies media queries on the types and features its CSS page lists only. */
const gmailMediaAllowlist: RewriteBehavior = {
  id: 'gmail-media-query-allowlist',
  kind: 'rewrite',
  severity: 'warning',
  label: '@media Gmail does not list',
  summary:
    'Gmail applies a media query only on the all and screen media types and the width, device-width, orientation and resolution features its CSS page lists: a query for print, or on another feature (pointer, color, display-mode …), never applies.',
  evidence: [
    {
      ...GMAIL_CSS_PAGE,
      note: "Reviewed 2026-12-07: the page's prose names queries on screen width, orientation and resolution, with a min-width example; the min-/max- forms and device-width are kept too, and so is the all type, so a doubtful query is kept (no finding) rather than dropped. prefers-color-scheme and the other features caniemail tests in Gmail are left to its flags (not supported in any Gmail client).",
    },
  ],
  rewriteAtRule: (name, params) => {
    if (name !== 'media' || !params) return undefined;
    // Emails repeat their few preludes, and Gmail's three clients ask alike: the answer is kept per prelude.
    let kept = GMAIL_MEDIA_MEMO.get(params);
    if (kept === undefined) {
      kept = params.split(',').some(gmailMediaQuerySupported);
      if (GMAIL_MEDIA_MEMO.size >= 512) GMAIL_MEDIA_MEMO.clear();
      GMAIL_MEDIA_MEMO.set(params, kept);
    }
    return kept ? undefined : null;
  },
  suggestion: 'Write responsive rules as screen queries on width (max-width, min-width); nothing else reaches Gmail.',
  fixture: {
    html: '<html><head><style>.a{color:#102030}@media (pointer:coarse){.a{color:#ff0000}}@media print{.a{color:#00ff00}}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['#ff0000', '#00ff00'], finding: { rule: 'gmail-media-query-allowlist' } },
  },
  counterFixture: {
    html: '<html><head><style>.a{color:#102030}@media only screen and (max-width:600px) and (min-resolution:2dppx){.a{color:#ff0000}}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['#ff0000'], noFindingFor: 'gmail-media-query-allowlist' },
  },
};

/** An attribute URL that loads from the web (http, https or protocol-relative). */
const REMOTE_SOURCE = /^\s*(?:https?:)?\/\//i;
/** A url() that loads from the web (http, https or protocol-relative). */
const REMOTE_URL = /url\(\s*(['"]?)\s*(?:https?:)?\/\/[^)]*\)/gi;
const HAS_REMOTE_URL = /url\(\s*['"]?\s*(?:https?:)?\/\//i;

/** Thunderbird's remote-content block covers images a style loads (background images), not only <img>. */
const thunderbirdRemoteCssImages: RewriteBehavior = {
  id: 'thunderbird-remote-css-images-blocked',
  kind: 'rewrite',
  severity: 'warning',
  label: 'remote background image',
  summary:
    'Thunderbird blocks remote content by default, background images included: a url() or a background attribute loading from the web shows nothing until the reader allows remote content (the background color stays).',
  evidence: [
    {
      url: 'https://github.com/mozilla/releases-comm-central/blob/main/mailnews/mailnews.js',
      title: 'comm-central: mailnews.js (mailnews.message_display.disable_remote_image defaults to true)',
      date: '2026-08-22',
    },
    {
      url: 'https://support.mozilla.org/kb/remote-content-in-messages',
      title: 'Mozilla support: Remote content in messages (remote images and other content blocked by default)',
      date: '2025',
    },
  ],
  properties: ['background', 'background-image'],
  valueMatches: HAS_REMOTE_URL,
  // The background attribute (on <body>, tables and cells) loads the same way.
  dropsAttributesOn: ['body', 'table', 'tr', 'td', 'th'],
  dropsAttributes: (element) => (element.attrs.some((a) => !a.prefix && a.name === 'background' && REMOTE_SOURCE.test(a.value)) ? ['background'] : []),
  rewrite: (d) => {
    if (!HAS_REMOTE_URL.test(d.value)) return undefined;
    if (d.property === 'background-image') return null;
    const rest = d.value
      .replace(REMOTE_URL, ' ')
      .replace(/\s*,\s*/g, ', ')
      .trim()
      .replace(/^,\s*|,\s*$/g, '');
    return rest ? { ...d, value: rest } : null;
  },
  suggestion: 'Give every background image a background color the text reads on, and make the message work without it.',
  fixture: {
    html: '<div style="background:#102030 url(https://example.com/bg.png) no-repeat;color:#ffffff">x</div>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['bg.png'], finding: { rule: 'thunderbird-remote-css-images-blocked' } },
  },
  // An embedded (data:) image is not remote content.
  counterFixture: {
    html: '<div style="background-image:url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)">x</div>',
    expect: { transformIncludes: ['data:image/gif'], noFindingFor: 'thunderbird-remote-css-images-blocked' },
  },
};

/**
 * An https address in text: what Proton's linkifier turns into a link. Its linkify-it instance has fuzzy links off
 * (no bare `www.` or `example.com`) and drops matches whose scheme is `http:` or `ftp:`, so only `https://` is linked.
 */
const RAW_URL = /\bhttps:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]]/gi;
const HAS_RAW_URL = /\bhttps:\/\//i;
const VERBATIM_PARENTS = new Set(['pre', 'code', 'a', 'textarea', 'script', 'style', 'noscript']);

function insideVerbatim(node: HtmlText | undefined): boolean {
  for (let parent = node?.parentNode; parent && isElement(parent); parent = parent.parentNode) {
    if (VERBATIM_PARENTS.has(parent.tagName)) return true;
  }
  return false;
}

/** Proton's renderer turns web addresses written as plain text into links (transformRawLinks). */
const protonRawLinks: AdditionBehavior = {
  id: 'proton-raw-urls-linked',
  kind: 'addition',
  severity: 'info',
  summary:
    'Proton Mail turns https:// addresses written as plain text into links (outside links, <pre> and <code>), in its own link style; http:// addresses and bare host names stay text.',
  evidence: [
    {
      url: 'https://github.com/ProtonMail/WebClients/blob/main/packages/mail-renderer/src/helpers/transforms/transformRawLinks.ts',
      title: "Proton WebClients: the mail renderer's raw-link transform (URLs in text nodes wrapped in <a href>)",
      date: '2026',
    },
    {
      url: 'https://github.com/ProtonMail/WebClients/blob/main/packages/shared/lib/mail/linkifyInstance.ts',
      title: 'Proton WebClients: the shared linkify-it instance (fuzzy links off; http: and ftp: matches dropped)',
      date: '2026',
      note: "Read 2026-12-07: bare hosts and www. forms are not linked, nor http:// and ftp:// addresses (the transform's own tests say so). Not modeled: e-mail addresses in text, which linkify-it still links (fuzzy e-mail stays on), and the caller flag that skips the pass.",
    },
  ],
  disabledBy: () => false,
  restyledBy: () => false,
  addTo: (text, _parsed, node) => {
    if (!HAS_RAW_URL.test(text) || insideVerbatim(node)) return undefined;
    let count = 0;
    let linked = '';
    let cursor = 0;
    for (const match of text.matchAll(RAW_URL)) {
      const url = match[0];
      linked += `${escapeText(text.slice(cursor, match.index))}<a href="${escapeAttributeValue(url)}" target="_blank">${escapeText(url)}</a>`;
      cursor = match.index + url.length;
      count++;
    }
    return count > 0 ? { text: linked + escapeText(text.slice(cursor)), count } : undefined;
  },
  suggestion: 'Link the addresses yourself (styled as you want them), or write them so they read as text (example dot com).',
  fixture: {
    html: '<p>Visit https://example.com/help today.</p>',
    expect: {
      transformIncludes: ['<a href="https://example.com/help" target="_blank">https://example.com/help</a> today.'],
      finding: { rule: 'proton-raw-urls-linked' },
    },
  },
  // An address already linked, in <code>, written with http:// or without a scheme stays as written.
  counterFixture: {
    html: '<p><a href="https://example.com/help">https://example.com/help</a> <code>https://example.com/code</code> http://example.com/plain www.example.com</p>',
    expect: {
      transformIncludes: ['<code>https://example.com/code</code> http://example.com/plain www.example.com</p>'],
      noFindingFor: 'proton-raw-urls-linked',
    },
  },
};

/** The behaviours of this file per client, appended to each model by client-models.ts. */
export const FIFTH_PASS_BEHAVIORS: Partial<Record<ClientId, readonly ClientBehavior[]>> = {
  'outlook-windows-legacy': [wordDirOnLinks, wordPercentImageSize, wordStyleAfterContent, wordDisplayOnlyNone],
  'yahoo-mail': [yahooMangledClassNames],
  'yahoo-mail-ios': [yahooMangledClassNames],
  'yahoo-mail-android': [yahooMangledClassNames],
  aol: [yahooMangledClassNames],
  'hey-mail': [heySemanticElements, heyCaption, heyBlockquoteDetails],
  'gmail-web': [gmailMediaAllowlist],
  'gmail-android': [gmailMediaAllowlist],
  'gmail-ios': [gmailMediaAllowlist, gmailIosWordSpacing],
  thunderbird: [thunderbirdRemoteCssImages],
  protonmail: [protonRawLinks],
};
