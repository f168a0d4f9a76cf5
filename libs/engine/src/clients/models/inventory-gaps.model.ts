import { CANIEMAIL } from '../caniemail-data';
import type { ClientId } from '../email-client';
import type { AdditionBehavior, ClientBehavior, Decl, ElementBehavior, Evidence, PrefixBehavior, RewriteBehavior, SanitizeBehavior } from './client-behavior';
import { getAttribute, isElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import { caniemailNote } from './documented-limits.model';
import { escapeAttributeValue, escapeText } from '../../parse/html-escape';

/**
 * Behaviours written from the caniemail notes the inventory still left open after its first pass (docs/clients.md,
 * "Behaviour inventory", third pass): markup and CSS the client adds (target="_blank" on links, its own
 * word-wrapping and transition reset), nested @media removed, Yahoo's @supports filter, light-dark() kept light,
 * alignment attributes ignored and three of the Word engine's value limits. Facts come from caniemail's notes
 * (read from the package at load time) and the threads cited; the fixtures are our own. Appended to each family's
 * model by client-models.ts, after documented-limits.model.ts.
 */

// ----- Markup and CSS the client adds -----

/** The client sets target="_blank" on every link (caniemail html-target note 1): one id for every client. */
function targetBlank(who: string): AdditionBehavior {
  const id = 'links-target-blank';
  return {
    id,
    kind: 'addition',
    severity: 'info',
    summary: `${who} opens every link in a new window: it sets target="_blank" on every <a>, replacing the email's own target.`,
    evidence: [caniemailNote('html-target#1', 'target="_blank" forced on all links')],
    addsAttributes: { on: ['a'], attributes: [{ name: 'target', value: '_blank' }] },
    disabledBy: () => false,
    restyledBy: () => false,
    suggestion: 'Do not rely on target (_self, _parent, a named window) in email: links open a new window or tab.',
    fixture: {
      html: '<a href="https://example.com/a" target="_self">x</a>',
      expect: { transformIncludes: ['target="_blank"'], transformExcludes: ['target="_self"'], finding: { rule: id } },
    },
    // A link with no target (or _blank) gets the client's, and no note.
    counterFixture: { html: '<a href="https://example.com/a">x</a>', expect: { transformIncludes: ['target="_blank"'], noFindingFor: id } },
  };
}

/**
 * A wrapping declaration the client's own style sheet sets (not `!important`): the email's own value on an
 * element wins, so it shows only where the email says nothing, and it never gives a finding.
 */
function clientWrapping(spec: {
  id: string;
  who: string;
  on: '*' | 'body';
  declaration: Decl;
  evidence: readonly Evidence[];
  suggestion: string;
}): AdditionBehavior {
  const css = `${spec.on}{${spec.declaration.property}:${spec.declaration.value}}`;
  const where = spec.on === '*' ? 'on every element' : 'on the body (inherited by the whole email)';
  return {
    id: spec.id,
    kind: 'addition',
    severity: 'info',
    summary: `${spec.who} sets ${spec.declaration.property}: ${spec.declaration.value} ${where} in its own style sheet, so long words and URLs break inside their box unless the email sets the property itself.`,
    evidence: spec.evidence,
    addsDeclarations: { on: [spec.on], declarations: [spec.declaration] },
    disabledBy: () => false,
    restyledBy: () => false,
    suggestion: spec.suggestion,
    fixture: { html: '<p>averyveryverylongwordwithoutanybreakopportunity</p>', expect: { transformIncludes: [css] } },
    // An email that sets the property itself keeps its value (the client's rule is not !important): no note.
    counterFixture: {
      html: `<p style="${spec.declaration.property}:normal">averyveryverylongword</p>`,
      expect: { transformIncludes: [css], noFindingFor: spec.id },
    },
  };
}

const WORD_WRAP: Decl = { property: 'word-wrap', value: 'break-word', important: false };
const WRAP_SUGGESTION = 'Set word-wrap (overflow-wrap) and word-break on the elements whose words must not break.';

const gmailWordWrap = (notes: readonly string[]): AdditionBehavior =>
  clientWrapping({
    id: 'gmail-word-wrap-break-word',
    who: 'Gmail',
    on: '*',
    declaration: WORD_WRAP,
    evidence: notes.map((note) => caniemailNote(note, 'word-wrap: break-word applied to every element')),
    suggestion: WRAP_SUGGESTION,
  });
const bodyWordWrap = (id: string, who: string): AdditionBehavior =>
  clientWrapping({
    id,
    who,
    on: 'body',
    declaration: WORD_WRAP,
    evidence: [caniemailNote('css-word-break#2', 'word-wrap: break-word applied')],
    suggestion: WRAP_SUGGESTION,
  });
const appleWordBreak = clientWrapping({
  id: 'apple-default-word-break',
  who: 'Apple Mail',
  on: 'body',
  declaration: { property: 'word-break', value: 'break-word', important: false },
  evidence: [
    caniemailNote('css-overflow-wrap#1', "word-break: normal resets Apple Mail's default style"),
    caniemailNote('css-word-break#2', 'long words break as if break-word applied'),
    {
      url: 'https://github.com/hteumeuleu/caniemail/issues/394',
      title: 'caniemail #394: overflow-wrap in Apple Mail (its default CSS includes word-break: break-word; word-break: normal resets it)',
      date: '2024-01-31',
      note: 'caniemail note css-word-break#2 names word-wrap: break-word; the thread names word-break: break-word, which the other note resets: modeled as the latter (both break long words).',
    },
  ],
  suggestion: 'Set word-break: normal where long words must not break (and overflow-wrap for the wrapping you want).',
});

/** HEY's global reset forces transition-duration to 0 (caniemail css-transition note 3). */
const heyTransitionReset: AdditionBehavior = {
  id: 'hey-transition-duration-reset',
  kind: 'addition',
  severity: 'info',
  summary: 'HEY forces transition-duration: 0s on every element with a global reset, so transitions jump to their end state.',
  evidence: [caniemailNote('css-transition#3', 'transition-duration forced to 0')],
  addsDeclarations: { on: ['*'], declarations: [{ property: 'transition-duration', value: '0s', important: true }] },
  disabledBy: () => false,
  restyledBy: () => false,
  suggestion: 'Make the end state of a transition the one that reads well: HEY shows it at once.',
  fixture: {
    html: '<a href="https://example.com/a" style="transition:color 2s">x</a>',
    expect: { transformIncludes: ['*{transition-duration:0s !important}'], finding: { rule: 'hey-transition-duration-reset' } },
  },
  counterFixture: {
    html: '<a href="https://example.com/a" style="color:#102030">x</a>',
    expect: { transformIncludes: ['*{transition-duration:0s !important}'], noFindingFor: 'hey-transition-duration-reset' },
  },
};

/** A run of 31 or more characters without white space: Gmail breaks it every 30. */
const LONG_WORD = /\S{31,}/g;

/** Gmail's webmail puts a <wbr> after every 30 characters of a long word (caniemail css-word-break note 1). */
const gmailWordBreaks: AdditionBehavior = {
  id: 'gmail-wbr-in-long-words',
  kind: 'addition',
  severity: 'info',
  summary: 'Gmail adds a <wbr> (a line-break opportunity) every 30 characters inside a long word or URL written as text.',
  evidence: [caniemailNote('css-word-break#1', '<wbr> added every 30 characters')],
  disabledBy: () => false,
  restyledBy: () => false,
  addTo: (text) => {
    // Most texts are shorter than one long word: no scan (this runs for every visible text of every email).
    if (text.length < 31) return undefined;
    let count = 0;
    let out = '';
    let at = 0;
    for (const match of text.matchAll(LONG_WORD)) {
      const start = match.index ?? 0;
      out += escapeText(text.slice(at, start));
      const word = match[0];
      const pieces: string[] = [];
      for (let i = 0; i < word.length; i += 30) pieces.push(escapeText(word.slice(i, i + 30)));
      count += pieces.length - 1;
      out += pieces.join('<wbr>');
      at = start + word.length;
    }
    return count > 0 ? { text: out + escapeText(text.slice(at)), count } : undefined;
  },
  suggestion: 'Expect long words and URLs to wrap in Gmail; set word-break or overflow-wrap yourself where the break point matters.',
  fixture: {
    html: '<p>Code: ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdef</p>',
    expect: { transformIncludes: ['ABCDEFGHIJKLMNOPQRSTUVWXYZ0123<wbr>456789abcdef'], finding: { rule: 'gmail-wbr-in-long-words' } },
  },
  // Ordinary words are left alone.
  counterFixture: {
    html: '<p>A short sentence &amp; words.</p>',
    expect: { transformIncludes: ['A short sentence &amp; words.'], noFindingFor: 'gmail-wbr-in-long-words' },
  },
};

// ----- Values an engine ignores or paints differently on some elements -----

/** The Word engine does not hide an <img> with display:none on the image itself (caniemail css-display-none note 2). */
const wordDisplayNoneOnImages: ElementBehavior = {
  id: 'word-display-none-not-on-img',
  kind: 'element',
  summary: 'The Word engine ignores display:none set on an <img> itself: the image still shows (it hides a cell or a block that holds it).',
  evidence: [caniemailNote('css-display-none#2', 'not on <img>'), caniemailNote('css-display#5', 'only display:none, and not on <img>')],
  properties: ['display'],
  ignoredOn: new Set(['img']),
  valueMatches: /^none\b/i,
  suggestion: 'Hide the image by its container (a <td> or <div> with display:none, or mso-hide:all), not by the <img>.',
  fixture: {
    html: '<table><tr><td><img src="https://example.com/a.png" alt="A" style="display:none;border:0"></td></tr></table>',
    expect: { transformExcludes: ['display:none', 'display: none'], finding: { rule: 'word-display-none-not-on-img' } },
  },
  // display:none on the cell that holds it works.
  counterFixture: {
    html: '<table><tr><td style="display:none"><img src="https://example.com/a.png" alt="A" style="border:0"></td></tr></table>',
    expect: { transformIncludes: ['display:none'], noFindingFor: 'word-display-none-not-on-img' },
  },
};

/** The Word engine ends an <ol> before an <li value> and starts a new one from that value (caniemail html-lists note 2). */
const wordListValueSplit: SanitizeBehavior = {
  id: 'word-li-value-splits-list',
  kind: 'sanitize',
  severity: 'info',
  summary:
    'The Word engine closes the <ol> before an <li> with a value attribute and opens a new <ol> whose start is that value: the list is cut in two, with list spacing between the parts.',
  evidence: [caniemailNote('html-lists#2', '<ol> closed before <li value>, a new <ol start> opened')],
  writesBefore: {
    on: ['li'],
    before: (element) => {
      const value = getAttribute(element, 'value')?.trim();
      const list = element.parentNode;
      if (!value || !/^-?\d+$/.test(value) || !list || !isElement(list) || list.tagName !== 'ol') return undefined;
      const attrs = list.attrs.filter((a) => !a.prefix && a.name !== 'start');
      return `</ol><ol${attrs.map((a) => ` ${a.name}="${escapeAttributeValue(a.value)}"`).join('')} start="${value}">`;
    },
  },
  suggestion: 'Use start on the <ol> instead of value on an <li>, or write the numbers as text.',
  fixture: {
    html: '<ol type="a"><li>one</li><li value="5">five</li><li>six</li></ol>',
    expect: { transformIncludes: ['<li>one</li></ol><ol type="a" start="5"><li value="5">five</li>'], finding: { rule: 'word-li-value-splits-list' } },
  },
  // start on the <ol> is read as written.
  counterFixture: {
    html: '<ol start="5"><li>five</li><li>six</li></ol>',
    expect: { transformIncludes: ['<ol start="5"><li>five</li>'], noFindingFor: 'word-li-value-splits-list' },
  },
};

/** Whether the email gives <body> a background: an attribute, its style attribute, or a <style> rule on body. */
export function bodyHasBackground(parsed: ParsedEmail): boolean {
  const body = parsed.elementsByTag.get('body')?.[0];
  if (body && (getAttribute(body, 'bgcolor')?.trim() || getAttribute(body, 'background')?.trim())) return true;
  if (body && (parsed.inlineStyles.get(body)?.declarations ?? []).some((d) => d.property.startsWith('background'))) return true;
  return parsed.styleSheets.some((sheet) => {
    let found = false;
    sheet.root.walkRules((rule) => {
      if (!found && /(?:^|[\s,>+~])body(?![-\w])/i.test(rule.selector))
        rule.each((node) => {
          if (node.type === 'decl' && node.prop.toLowerCase().startsWith('background')) found = true;
        });
    });
    return found;
  });
}

/** Apple Mail on macOS shows an inline <svg> only when the body has a background (caniemail html-svg note 1). */
const appleSvgNeedsBodyBackground: SanitizeBehavior = {
  id: 'apple-svg-needs-body-background',
  kind: 'sanitize',
  severity: 'warning',
  removesElements: new Set(['svg']),
  sanitizesWhen: (_element, parsed) => !bodyHasBackground(parsed),
  summary: 'Apple Mail on macOS shows no inline <svg> unless <body> has a background (any color or image, as an attribute, inline or in <style>).',
  evidence: [caniemailNote('html-svg#1', 'requires a background on <body>')],
  suggestion: 'Give <body> a background (bgcolor, or background-color in its style), or use an image instead of inline SVG.',
  fixture: {
    html: '<html><head></head><body><p>logo</p><svg width="10" height="10"><rect width="10" height="10" fill="#102030"></rect></svg></body></html>',
    expect: { transformIncludes: ['<p>logo</p>'], transformExcludes: ['<svg'] },
  },
  // With a body background the SVG shows.
  counterFixture: {
    html: '<html><head></head><body style="background-color:#ffffff"><svg width="10" height="10"><rect width="10" height="10" fill="#102030"></rect></svg></body></html>',
    expect: { transformIncludes: ['<svg'], noFindingFor: 'apple-svg-needs-body-background' },
  },
};

/** visibility:collapse on a table row only hides its content, the row keeps its space (caniemail css-visibility note 1). */
function collapsedRowPaintedHidden(id: string, who: string): ElementBehavior {
  return {
    id,
    kind: 'element',
    summary: `${who} paints visibility:collapse on a table row as visibility:hidden: the row's content is hidden but the row keeps its height.`,
    evidence: [caniemailNote('css-visibility#1', 'collapse on a <tr> does not remove the row from the layout')],
    properties: ['visibility'],
    ignoredOn: new Set(['tr']),
    valueMatches: /^collapse$/i,
    becomes: 'hidden',
    suggestion: 'Remove a row from the layout with display:none (and mso-hide:all for Outlook) instead of visibility:collapse.',
    fixture: {
      html: '<table><tr style="visibility:collapse"><td>hidden row</td></tr><tr><td>x</td></tr></table>',
      expect: { transformIncludes: ['hidden'], transformExcludes: ['collapse'], finding: { rule: id } },
    },
    // visibility:hidden is painted as written.
    counterFixture: {
      html: '<table><tr style="visibility:hidden"><td>hidden row</td></tr></table>',
      expect: { transformIncludes: ['visibility:hidden'], noFindingFor: id },
    },
  };
}
const appleCollapsedRow = collapsedRowPaintedHidden('apple-collapsed-row-hidden', 'Apple Mail (WebKit)');
const outlookAppsCollapsedRow = collapsedRowPaintedHidden('outlook-apps-collapsed-row-hidden', 'Outlook for Mac and iOS (WebKit)');
const yahooIosCollapsedRow = collapsedRowPaintedHidden('yahoo-ios-collapsed-row-hidden', "Yahoo's iOS app (WebKit)");

// ----- At-rules -----

/** Outlook removes an @media nested in another at-rule (caniemail css-at-media notes 1 and 10). */
function outlookNestedMedia(notes: readonly string[]): RewriteBehavior {
  return {
    id: 'outlook-nested-media-removed',
    kind: 'rewrite',
    severity: 'warning',
    label: 'nested @media',
    summary: 'Outlook removes an @media nested in another at-rule (@media or @supports) with its rules; the outer one stays.',
    evidence: notes.map((note) => caniemailNote(note, 'nested media queries')),
    rewriteAtRule: (name, _params, _nested, parentAtRule) => (name === 'media' && parentAtRule !== undefined ? null : undefined),
    suggestion: 'Write each media query at the top level, combining the conditions with and.',
    fixture: {
      html: '<html><head><style>.a{color:#102030}@media screen{.b{color:#0000ff}@media (min-width:1px){.a{color:#ff0000}}}</style></head><body><p class="a b">x</p></body></html>',
      expect: { transformIncludes: ['#102030', '#0000ff'], transformExcludes: ['#ff0000'], finding: { rule: 'outlook-nested-media-removed' } },
    },
    // A top-level media query is kept.
    counterFixture: {
      html: '<html><head><style>.a{color:#102030}@media (min-width:1px){.a{color:#ff0000}}</style></head><body><p class="a">x</p></body></html>',
      expect: { transformIncludes: ['#ff0000'], noFindingFor: 'outlook-nested-media-removed' },
    },
  };
}

const FEATURES = new Map(CANIEMAIL.data.map((feature) => [feature.slug, feature]));

/** caniemail's newest flag for the property's feature (`css-<property>`) on one platform is "not supported". */
function unsupportedProperty(property: string, family: string, platform: string): boolean {
  const cells = FEATURES.get(`css-${property}`)?.stats[family]?.[platform];
  if (!cells) return false;
  const versions = Object.keys(cells);
  return versions.length > 0 && cells[versions[versions.length - 1]].trim().startsWith('n');
}

const SUPPORTS_CONDITION = /\(\s*([-a-zA-Z]+)\s*:/g;

/**
 * Yahoo writes `_filtered_a` in place of a property it does not support inside an @supports condition
 * (caniemail css-at-supports note 1), so the condition is false and its rules never apply. Which properties
 * it does not support: caniemail's newest flag for the property on the platform.
 */
function yahooSupportsFilter(family: string, platform: string): RewriteBehavior {
  return {
    id: 'yahoo-supports-filtered',
    kind: 'rewrite',
    severity: 'warning',
    label: '@supports condition filtered',
    summary: 'Yahoo replaces a property it does not support inside an @supports condition with _filtered_a: the condition is false and its rules never apply.',
    evidence: [caniemailNote('css-at-supports#1', 'unsupported properties replaced by _filtered_a')],
    rewriteAtRule: (name, params) => {
      if (name !== 'supports') return undefined;
      const written = params.replace(SUPPORTS_CONDITION, (whole, property: string) =>
        unsupportedProperty(property.toLowerCase(), family, platform) ? whole.replace(property, '_filtered_a') : whole,
      );
      return written === params ? undefined : written;
    },
    suggestion: 'Give Yahoo a layout that works without the @supports block (its fallback outside the block).',
    fixture: {
      html: '<html><head><style>.a{color:#102030}@supports (box-shadow:0 0 1px #000000){.a{color:#ff0000}}</style></head><body><p class="a">x</p></body></html>',
      expect: { transformIncludes: ['@supports (_filtered_a:'], finding: { rule: 'yahoo-supports-filtered' } },
    },
    // A condition on a property Yahoo supports is kept as written.
    counterFixture: {
      html: '<html><head><style>.a{color:#102030}@supports (display:block){.a{color:#ff0000}}</style></head><body><p class="a">x</p></body></html>',
      expect: { transformIncludes: ['@supports (display:block)'], noFindingFor: 'yahoo-supports-filtered' },
    },
  };
}

/**
 * Yahoo removes the selector of a nested style rule and keeps its declarations in the parent rule, so they
 * apply to the parent's elements (caniemail css-nesting note 3).
 */
const yahooNestingFlattened: PrefixBehavior = {
  id: 'yahoo-nesting-flattened',
  kind: 'prefix',
  summary: "Yahoo removes the selector of a style rule nested in another: its declarations join the parent rule and apply to the parent's elements.",
  evidence: [caniemailNote('css-nesting#3', 'nested selectors removed, their properties applied to the parent')],
  flattensNestedRules: true,
  fixture: {
    html: '<html><head><style>.a{color:#102030; .b{color:#ff0000}}</style></head><body><p class="a">x <span class="b">y</span></p></body></html>',
    expect: { transformIncludes: ['{color:#102030;color:#ff0000;}'] },
  },
  // A rule without nesting is written as before.
  counterFixture: {
    html: '<html><head><style>.a{color:#102030}.b{color:#ff0000}</style></head><body><p class="a">x <span class="b">y</span></p></body></html>',
    expect: { transformIncludes: ['{color:#102030;}', '{color:#ff0000;}'] },
  },
};

// ----- Values -----

/** `value` with every light-dark(a, b) replaced by its light color `a`, or undefined when it has none. */
export function lightColorOf(value: string): string | undefined {
  const lowered = value.toLowerCase();
  let from = lowered.indexOf('light-dark(');
  if (from < 0) return undefined;
  let out = '';
  let copied = 0;
  while (from >= 0) {
    const open = from + 'light-dark('.length;
    let depth = 1;
    let comma = -1;
    let end = open;
    for (; end < value.length && depth > 0; end++) {
      const ch = value[end];
      if (ch === '(') depth++;
      else if (ch === ')') depth--;
      else if (ch === ',' && depth === 1 && comma < 0) comma = end;
    }
    if (depth > 0 || comma < 0) return undefined;
    out += value.slice(copied, from) + value.slice(open, comma).trim();
    copied = end;
    from = lowered.indexOf('light-dark(', end);
  }
  return out + value.slice(copied);
}

/** The client supports light-dark() but always paints its light color (caniemail css-function-light-dark note 2). */
function lightDarkStaysLight(id: string, who: string): RewriteBehavior {
  return {
    id,
    kind: 'rewrite',
    severity: 'warning',
    label: 'light-dark() in dark mode',
    summary: `${who} keeps the light color of light-dark() even in dark mode.`,
    evidence: [caniemailNote('css-function-light-dark#2', 'the color stays light in dark mode')],
    valueMatches: /light-dark\(/i,
    rewrite: (d) => {
      const light = /light-dark\(/i.test(d.value) ? lightColorOf(d.value) : undefined;
      return light === undefined ? undefined : { ...d, value: light };
    },
    suggestion: 'Give a dark color through a prefers-color-scheme query as well, or pick colors that read on both backgrounds.',
    fixture: {
      html: '<p style="color:light-dark(#102030, #fefefe)">x</p>',
      expect: { transformIncludes: ['color: #102030'], transformExcludes: ['light-dark', '#fefefe'], finding: { rule: id } },
    },
    // A plain color is not concerned.
    counterFixture: { html: '<p style="color:#102030">x</p>', expect: { transformIncludes: ['#102030'], noFindingFor: id } },
  };
}

/** An alignment attribute the client ignores (left or right only), modeled as the attribute removed. */
function alignIgnored(spec: { id: string; tag: string; who: string; note: string; about: string; suggestion: string }): RewriteBehavior {
  const ignored = (value: string) => ['left', 'right'].includes(value.trim().toLowerCase());
  return {
    id: spec.id,
    kind: 'rewrite',
    severity: 'warning',
    label: `align on <${spec.tag}>`,
    summary: `${spec.who} ignores align="left" and align="right" on <${spec.tag}> (${spec.about}).`,
    evidence: [caniemailNote(spec.note, spec.about)],
    dropsAttributesOn: [spec.tag],
    dropsAttributes: (element) => element.attrs.filter((a) => !a.prefix && a.name === 'align' && ignored(a.value)).map((a) => a.name),
    suggestion: spec.suggestion,
    fixture: {
      html:
        spec.tag === 'img'
          ? '<img src="https://example.com/a.png" align="right" alt="A" width="40" height="40">'
          : '<table align="right"><tr><td>x</td></tr></table>',
      expect: { transformExcludes: ['align="right"'], finding: { rule: spec.id } },
    },
    // align="center" (or top, middle) is not concerned.
    counterFixture: {
      html: spec.tag === 'img' ? '<img src="https://example.com/a.png" align="middle" alt="A">' : '<table align="center"><tr><td>x</td></tr></table>',
      expect: { transformIncludes: [spec.tag === 'img' ? 'align="middle"' : 'align="center"'], noFindingFor: spec.id },
    },
  };
}

const protonAlignOnImages = alignIgnored({
  id: 'proton-align-on-images-ignored',
  tag: 'img',
  who: 'Proton Mail',
  note: 'html-align#1',
  about: 'images are wrapped in a <span>',
  suggestion: 'Place images with a table cell (align on the <td>) or float.',
});
const outlookMacTableAlign = alignIgnored({
  id: 'outlook-mac-table-align-ignored',
  tag: 'table',
  who: 'Outlook for Mac',
  note: 'html-align#3',
  about: 'left and right do not work on tables',
  suggestion: 'Float the table with style="float:left" (or right) instead.',
});

/** The Word engine honors the background attribute on <body> only (caniemail html-background note 2). */
const WORD_BACKGROUND_TAGS = ['table', 'tr', 'td', 'th', 'div', 'p', 'span', 'center'];
const wordBackgroundAttribute: RewriteBehavior = {
  id: 'word-background-attribute-body-only',
  kind: 'rewrite',
  severity: 'warning',
  label: 'background attribute off <body>',
  summary: 'The Word engine honors the background attribute (a background image) on <body> only; on a table or a cell it is ignored.',
  evidence: [caniemailNote('html-background#2', 'only on <body>')],
  dropsAttributesOn: WORD_BACKGROUND_TAGS,
  dropsAttributes: (element) => (element.attrs.some((a) => !a.prefix && a.name === 'background') ? ['background'] : []),
  suggestion: 'Give Outlook a background image on a cell with VML (v:rect with v:fill), and a bgcolor fallback.',
  fixture: {
    html: '<table><tr><td background="https://example.com/bg.png" bgcolor="#102030">x</td></tr></table>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['bg.png'], finding: { rule: 'word-background-attribute-body-only' } },
  },
  // On <body> it works: kept, no note.
  counterFixture: {
    html: '<html><head></head><body background="https://example.com/bg.png"><p>x</p></body></html>',
    expect: { transformIncludes: ['bg.png'], noFindingFor: 'word-background-attribute-body-only' },
  },
};

const BACKGROUND_KEYWORDS = new Set([
  'none',
  'repeat',
  'no-repeat',
  'repeat-x',
  'repeat-y',
  'space',
  'round',
  'center',
  'top',
  'bottom',
  'left',
  'right',
  'fixed',
  'scroll',
  'local',
  'border-box',
  'padding-box',
  'content-box',
  'cover',
  'contain',
  'auto',
  '/',
]);
const COLOR_FUNCTION = /^(rgba?|hsla?)\(/i;

/** The color of a background shorthand (hex, rgb()/hsl() or a color name), or undefined. Linear in the value. */
export function backgroundColorOf(value: string): { color: string | undefined; onlyColor: boolean } {
  const tokens: string[] = [];
  let depth = 0;
  let token = '';
  for (const ch of value.trim()) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && /[\s,]/.test(ch)) {
      if (token) tokens.push(token);
      token = '';
      continue;
    }
    token += ch;
  }
  if (token) tokens.push(token);
  let color: string | undefined;
  for (const t of tokens) {
    const lowered = t.toLowerCase();
    if (lowered.startsWith('#') || COLOR_FUNCTION.test(lowered)) color = t;
    else if (/^[a-z]+$/.test(lowered) && !BACKGROUND_KEYWORDS.has(lowered)) color = t;
  }
  return { color, onlyColor: tokens.length === 1 && color !== undefined };
}

/** The Word engine reads only the color of a background shorthand (caniemail css-background note 3). */
const wordBackgroundColorOnly: RewriteBehavior = {
  id: 'word-background-color-only',
  kind: 'rewrite',
  severity: 'warning',
  label: 'background shorthand',
  summary: 'The Word engine reads only the color of a background shorthand; images, gradients, positions and sizes in it are dropped.',
  evidence: [caniemailNote('css-background#3', 'only background-color values')],
  properties: ['background'],
  rewrite: (d) => {
    if (d.property !== 'background' || /^(inherit|initial|unset|revert|none|transparent)$/i.test(d.value.trim())) return undefined;
    const { color, onlyColor } = backgroundColorOf(d.value);
    if (onlyColor) return undefined;
    return color ? { ...d, value: color } : null;
  },
  suggestion: 'Give Outlook a background image with VML; keep the color in the shorthand (or background-color) as the fallback.',
  fixture: {
    html: '<div style="background:#102030 url(https://example.com/bg.png) no-repeat center">x</div>',
    expect: { transformIncludes: ['background: #102030'], transformExcludes: ['bg.png'], finding: { rule: 'word-background-color-only' } },
  },
  // A background that is only a color is read as written.
  counterFixture: { html: '<div style="background:#102030">x</div>', expect: { transformIncludes: ['#102030'], noFindingFor: 'word-background-color-only' } },
};

const BORDER_PROPERTIES = ['border', 'border-top', 'border-right', 'border-bottom', 'border-left', 'border-width', 'border-*-width'];
const PX_LENGTH = /(^|[\s,])(\d*\.?\d+)px\b/g;

/** The Word engine draws no border wider than 8px (6pt; caniemail css-border note 1): wider ones are drawn 8px wide. */
const wordBorderMax: RewriteBehavior = {
  id: 'word-border-width-max',
  kind: 'rewrite',
  severity: 'info',
  label: 'border wider than 8px',
  summary: 'The Word engine draws a border at most 8px (6pt) wide: a wider border is drawn 8px wide.',
  evidence: [caniemailNote('css-border#1', 'no border bigger than 8px')],
  properties: [
    'border',
    'border-top',
    'border-right',
    'border-bottom',
    'border-left',
    'border-width',
    'border-top-width',
    'border-right-width',
    'border-bottom-width',
    'border-left-width',
  ],
  rewrite: (d) => {
    if (!BORDER_PROPERTIES.some((p) => (p.includes('*') ? /^border-(top|right|bottom|left)-width$/.test(d.property) : p === d.property))) return undefined;
    let clamped = false;
    const value = d.value.replace(PX_LENGTH, (whole, before: string, amount: string) => {
      if (Number(amount) <= 8) return whole;
      clamped = true;
      return `${before}8px`;
    });
    return clamped ? { ...d, value } : undefined;
  },
  suggestion: 'Draw thick rules with a cell of that height and a background color instead of a border.',
  fixture: {
    html: '<div style="border:12px solid #102030">x</div>',
    expect: { transformIncludes: ['8px solid #102030'], transformExcludes: ['12px'], finding: { rule: 'word-border-width-max' } },
  },
  counterFixture: {
    html: '<div style="border:2px solid #102030">x</div>',
    expect: { transformIncludes: ['2px solid'], noFindingFor: 'word-border-width-max' },
  },
};

/** The src of an @font-face without its url() sources (the local() ones stay), split at top-level commas. */
export function localFontSources(value: string): string {
  const sources: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= value.length; i++) {
    const ch = value[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (i === value.length || (ch === ',' && depth === 0)) {
      const source = value.slice(start, i).trim();
      if (source && !/^url\(/i.test(source)) sources.push(source);
      start = i + 1;
    }
  }
  return sources.join(', ');
}

/** The Word engine keeps @font-face but ignores fonts loaded from a URL (caniemail css-at-font-face note 4). */
const wordRemoteFontsIgnored: RewriteBehavior = {
  id: 'word-remote-fonts-ignored',
  kind: 'rewrite',
  severity: 'info',
  label: 'web font from a URL',
  summary: 'The Word engine reads @font-face but ignores fonts loaded from a URL: the next font of the font-family list is used.',
  evidence: [caniemailNote('css-at-font-face#4', 'distant fonts ignored')],
  properties: ['src'],
  rewrite: (d, site) => {
    if (site.inline || d.property !== 'src' || !/url\(/i.test(d.value)) return undefined;
    const local = localFontSources(d.value);
    return local ? { ...d, value: local } : null;
  },
  suggestion: 'List a fallback font the reader has (Arial, Georgia) after the web font in font-family.',
  fixture: {
    html: '<html><head><style>@font-face{font-family:Brand;src:url(https://example.com/brand.woff2) format("woff2")}.a{font-family:Brand, Arial;color:#102030}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['#102030'], transformExcludes: ['brand.woff2'], finding: { rule: 'word-remote-fonts-ignored' } },
  },
  // A font the machine has (local()) is used.
  counterFixture: {
    html: '<html><head><style>@font-face{font-family:Brand;src:local(Arial)}.a{font-family:Brand, Arial}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['local(Arial)'], noFindingFor: 'word-remote-fonts-ignored' },
  },
};

// ----- Per client -----

const GMAIL_TARGET = targetBlank('Gmail');
const OUTLOOK_TARGET = targetBlank('Outlook');
const YAHOO_TARGET = targetBlank('Yahoo');

/** The behaviours of this file per client, appended to each model by client-models.ts. */
export const INVENTORY_GAP_BEHAVIORS: Partial<Record<ClientId, readonly ClientBehavior[]>> = {
  'gmail-web': [GMAIL_TARGET, gmailWordWrap(['css-word-wrap#1']), gmailWordBreaks],
  'gmail-android': [GMAIL_TARGET, gmailWordWrap(['css-word-wrap#1', 'css-word-break#2'])],
  'gmail-ios': [GMAIL_TARGET, bodyWordWrap('gmail-ios-word-wrap-break-word', 'Gmail for iOS')],
  'outlook-web': [OUTLOOK_TARGET, outlookNestedMedia(['css-at-media#1', 'css-at-media#10']), bodyWordWrap('outlook-word-wrap-break-word', 'Outlook')],
  'outlook-windows': [OUTLOOK_TARGET, outlookNestedMedia(['css-at-media#1', 'css-at-media#10']), bodyWordWrap('outlook-word-wrap-break-word', 'Outlook')],
  'outlook-windows-legacy': [
    wordBackgroundAttribute,
    wordBackgroundColorOnly,
    wordBorderMax,
    wordRemoteFontsIgnored,
    wordDisplayNoneOnImages,
    wordListValueSplit,
  ],
  'outlook-macos': [
    outlookNestedMedia(['css-at-media#1', 'css-at-media#10']),
    bodyWordWrap('outlook-word-wrap-break-word', 'Outlook'),
    outlookMacTableAlign,
    outlookAppsCollapsedRow,
  ],
  'outlook-ios': [outlookNestedMedia(['css-at-media#1']), bodyWordWrap('outlook-word-wrap-break-word', 'Outlook'), outlookAppsCollapsedRow],
  'outlook-android': [outlookNestedMedia(['css-at-media#1']), bodyWordWrap('outlook-word-wrap-break-word', 'Outlook')],
  'apple-mail-macos': [appleWordBreak, appleCollapsedRow, appleSvgNeedsBodyBackground],
  'apple-mail-ios': [appleWordBreak, appleCollapsedRow],
  'yahoo-mail': [YAHOO_TARGET, yahooSupportsFilter('yahoo', 'desktop-webmail'), yahooNestingFlattened],
  'yahoo-mail-ios': [YAHOO_TARGET, yahooSupportsFilter('yahoo', 'ios'), yahooNestingFlattened, yahooIosCollapsedRow],
  'yahoo-mail-android': [YAHOO_TARGET, yahooSupportsFilter('yahoo', 'android'), yahooNestingFlattened],
  aol: [YAHOO_TARGET, yahooSupportsFilter('aol', 'desktop-webmail'), yahooNestingFlattened],
  'samsung-mail': [bodyWordWrap('samsung-word-wrap-break-word', 'Samsung Email')],
  protonmail: [targetBlank('Proton Mail'), lightDarkStaysLight('proton-light-dark-stays-light', 'Proton Mail'), protonAlignOnImages],
  fastmail: [targetBlank('Fastmail')],
  'hey-mail': [targetBlank('HEY'), lightDarkStaysLight('hey-light-dark-stays-light', 'HEY'), heyTransitionReset],
};
