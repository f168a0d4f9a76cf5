import type { ClientId } from '../email-client';
import type { ClientBehavior, ElementBehavior, PrefixBehavior, RewriteBehavior } from './client-behavior';
import type { HtmlElement } from '../../parse/dom';
import { isElement } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import { attributeSelectors, caniemailNote, selectorLimit } from './documented-limits.model';

/**
 * Behaviours of the inventory's sixth pass (docs/clients.md, "Sixth pass"): caniemail gap rows that needed a hook
 * the pipeline lacked. The Word engine's painting rules are element rules with a condition on the element
 * (`when`) and a second rule on a property another rule already governs (`display`, `padding`, `margin`); the ones
 * Chromium cannot paint keep the declaration and only report it (`keeps`). Gmail's attribute-selector limit is a
 * selector limit its inliner now reads before inlining. Apple's `width: min-content` is a rewrite that adds a
 * declaration beside the one it reads (`Decl.alongside`). Each reads only declarations, elements or selectors that
 * carry its feature. Facts come from the notes cited; fixtures are our own. Appended to each family's model by
 * client-models.ts, after inventory-fifth-pass.model.ts.
 */

// ----- The Word engine (Outlook for Windows, 2007-2019) -----

/** The element's own inline declarations (property lower-case). */
function inlineDeclarations(element: HtmlElement, parsed: ParsedEmail): ReadonlyArray<{ property: string; value: string }> {
  return parsed.inlineStyles.get(element)?.declarations ?? [];
}

const MSO_HIDE_ALL = /^all$/i;

/** The element's own style attribute sets `mso-hide: all` (what hides an element and everything in it from Word). */
function hiddenFromWord(element: HtmlElement, parsed: ParsedEmail): boolean {
  return inlineDeclarations(element, parsed).some((d) => d.property === 'mso-hide' && MSO_HIDE_ALL.test(d.value.trim()));
}

/** The <table> elements inside an element that Word would still show: not hidden by their own or a nearer `mso-hide: all`. */
function hasShownNestedTable(element: HtmlElement, parsed: ParsedEmail): boolean {
  const stack: HtmlElement[] = [];
  for (const child of element.childNodes) if (isElement(child)) stack.push(child);
  while (stack.length > 0) {
    const node = stack.pop() as HtmlElement;
    if (hiddenFromWord(node, parsed)) continue;
    if (node.tagName === 'table') return true;
    for (const child of node.childNodes) if (isElement(child)) stack.push(child);
  }
  return false;
}

/**
 * The Word engine does not inherit display:none onto the tables inside the hidden element (caniemail css-display-none
 * note 1, css-display note 4): the nested tables show. Modeled as the declaration dropped on an element that holds a
 * table no `mso-hide: all` covers (the element's own text shows too in the rewritten markup; Word hides that text).
 */
const wordDisplayNoneNestedTables: ElementBehavior = {
  id: 'word-display-none-nested-tables',
  kind: 'element',
  summary:
    'The Word engine does not pass display:none on to the tables inside the hidden element: its nested tables still show (mso-hide:all on the element or on each table hides them).',
  evidence: [
    caniemailNote('css-display-none#1', 'does not inherit onto nested tables'),
    caniemailNote('css-display#4', 'display:none does not inherit to inner tables'),
  ],
  properties: ['display'],
  valueMatches: /^none\b/i,
  when: (element, parsed) => !hiddenFromWord(element, parsed) && hasShownNestedTable(element, parsed),
  suggestion: 'Add mso-hide:all next to display:none (on the element, or on each table inside it) to hide it from Outlook on Windows.',
  fixture: {
    html: '<div class="mobile" style="display:none"><table><tr><td>Mobile only</td></tr></table></div>',
    expect: { transformExcludes: ['display:none', 'display: none'], finding: { rule: 'word-display-none-nested-tables' } },
  },
  // mso-hide:all beside it hides the tables from Word too.
  counterFixture: {
    html: '<div style="display:none;mso-hide:all"><table><tr><td>Mobile only</td></tr></table></div>',
    expect: { transformIncludes: ['display:none'], noFindingFor: 'word-display-none-nested-tables' },
  },
};

const PX_LENGTH = /^(-?(?:\d+\.?\d*|\.\d+))(px)?$/i;

/** A CSS length in px (a bare 0 too); undefined for other units. */
function pixels(value: string): number | undefined {
  const match = PX_LENGTH.exec(value.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  return match[2] || n === 0 ? n : undefined;
}

/** A cell's top and bottom padding in px from its style attribute (0 when unset; undefined when a unit is not px). */
function verticalPadding(cell: HtmlElement, parsed: ParsedEmail): { top: number; bottom: number } | undefined {
  let top = 0;
  let bottom = 0;
  for (const { property, value } of inlineDeclarations(cell, parsed)) {
    if (property === 'padding') {
      const parts = value.trim().split(/\s+/).map(pixels);
      if (parts.length === 0 || parts.length > 4 || parts.some((p) => p === undefined)) return undefined;
      top = parts[0] as number;
      bottom = (parts.length >= 3 ? parts[2] : parts[0]) as number;
    } else if (property === 'padding-top' || property === 'padding-bottom') {
      const n = pixels(value);
      if (n === undefined) return undefined;
      if (property === 'padding-top') top = n;
      else bottom = n;
    }
  }
  return { top, bottom };
}

const rowPaddingSpreads = new WeakMap<HtmlElement, boolean>();

/**
 * A cell whose top or bottom padding is larger than another cell's of the same row: Word gives every cell of the row
 * its value. Kept per cell (the findings and the markup ask for each of its padding declarations).
 */
function sharesLargerRowPadding(cell: HtmlElement, parsed: ParsedEmail): boolean {
  let spreads = rowPaddingSpreads.get(cell);
  if (spreads === undefined) {
    spreads = paddingLargerThanARowNeighbour(cell, parsed);
    rowPaddingSpreads.set(cell, spreads);
  }
  return spreads;
}

function paddingLargerThanARowNeighbour(cell: HtmlElement, parsed: ParsedEmail): boolean {
  const row = cell.parentNode;
  if (!row || !isElement(row) || row.tagName !== 'tr') return false;
  const own = verticalPadding(cell, parsed);
  if (!own || (own.top === 0 && own.bottom === 0)) return false;
  for (const sibling of row.childNodes) {
    if (sibling === cell || !isElement(sibling) || (sibling.tagName !== 'td' && sibling.tagName !== 'th')) continue;
    const other = verticalPadding(sibling, parsed);
    if (other && (other.top < own.top || other.bottom < own.bottom)) return true;
  }
  return false;
}

/**
 * The Word engine gives every cell of a row the largest vertical padding of the row (caniemail css-padding note 2).
 * Reported on the cell whose padding spreads; the markup keeps it (Chromium has no CSS that pads a row's cells alike
 * short of writing each cell's padding, which the model does not guess beyond the style attributes).
 */
const wordRowVerticalPadding: ElementBehavior = {
  id: 'word-row-vertical-padding',
  kind: 'element',
  summary:
    'The Word engine gives every cell of a table row the largest top and bottom padding of that row: a cell padded more than its neighbours pads them all alike.',
  evidence: [caniemailNote('css-padding#2', 'vertical padding shared by the cells of a row, the biggest value')],
  properties: ['padding', 'padding-top', 'padding-bottom'],
  ignoredOn: new Set(['td', 'th']),
  // A declaration that sets some padding (not `padding: 0` before a `padding-top`): one finding per cell that spreads it.
  valueMatches: /[1-9]/,
  when: sharesLargerRowPadding,
  keeps: true,
  suggestion: 'Give the cells of one row the same vertical padding, or put the padded content in a nested table of its own.',
  fixture: {
    html: '<table><tr><td style="padding:30px 10px">Text</td><td style="padding:0"><img src="https://example.com/a.png" alt="A" width="100"></td></tr></table>',
    expect: { transformIncludes: ['padding:30px 10px'], finding: { rule: 'word-row-vertical-padding' } },
  },
  // The same vertical padding on every cell of the row paints as written.
  counterFixture: {
    html: '<table><tr><td style="padding:30px 10px">Text</td><td style="padding:30px 0">More</td></tr></table>',
    expect: { transformIncludes: ['padding:30px 10px'], noFindingFor: 'padding' },
  },
};

const BACKGROUND_PROPERTIES = new Set(['background', 'background-color']);
const NO_BACKGROUND = /^(transparent|none|initial|inherit|unset)$/i;

/** The element paints a background from its own style attribute. */
function hasOwnBackground(element: HtmlElement, parsed: ParsedEmail): boolean {
  return inlineDeclarations(element, parsed).some((d) => BACKGROUND_PROPERTIES.has(d.property) && !NO_BACKGROUND.test(d.value.trim()));
}

/**
 * The Word engine paints an element's background-color under its margin too (caniemail css-margin note 3): the
 * margin looks like padding. Reported where an element with a non-zero margin has a background in its own style
 * attribute; the markup keeps it.
 */
const wordMarginBackground: ElementBehavior = {
  id: 'word-margin-takes-background',
  kind: 'element',
  summary: 'The Word engine paints the background-color of an element under its margin too: the margin reads as padding in the same color.',
  evidence: [caniemailNote('css-margin#3', 'background-color included inside the margin')],
  properties: ['margin', 'margin-top', 'margin-right', 'margin-bottom', 'margin-left'],
  valueMatches: /(^|[\s-])(\d*\.)?\d*[1-9]/,
  when: hasOwnBackground,
  keeps: true,
  suggestion: 'Space a colored block with a wrapping table cell or an outer element without background, not with margin on the colored element.',
  fixture: {
    html: '<p style="margin:20px 0;background-color:#ffeecc">Note</p>',
    expect: { transformIncludes: ['margin:20px 0'], finding: { rule: 'word-margin-takes-background' } },
  },
  // A margin on an element without a background of its own paints as written.
  counterFixture: {
    html: '<div style="background-color:#ffeecc"><p style="margin:20px 0">Note</p></div>',
    expect: { transformIncludes: ['margin:20px 0'], noFindingFor: 'word-margin-takes-background' },
  },
};

/**
 * The Word engine paints letter-spacing given in em smaller than CSS does (caniemail css-letter-spacing note 2, with
 * the screenshots of caniemail issue #192). How much smaller is not measured there, so the markup keeps the value.
 */
const wordLetterSpacingEm: ElementBehavior = {
  id: 'word-letter-spacing-em',
  kind: 'element',
  summary: 'The Word engine paints letter-spacing given in em smaller than other engines do (px values are painted as written).',
  evidence: [
    caniemailNote('css-letter-spacing#2', 'values in em smaller than expected'),
    {
      url: 'https://github.com/hteumeuleu/caniemail/issues/192',
      title: 'caniemail #192: letter-spacing partial support in Outlook (em values render smaller)',
      date: '2021-09-29',
      note: 'The report compares 0.2em and 0.4em side by side: Outlook paints both narrower. No factor is given, so the value is not rewritten.',
    },
  ],
  properties: ['letter-spacing'],
  valueMatches: /^-?(\d+\.?\d*|\.\d+)em$/i,
  keeps: true,
  suggestion: 'Give letter-spacing in px for Outlook on Windows (or in a <!--[if mso]> style).',
  fixture: {
    html: '<p style="letter-spacing:0.2em">SPACED</p>',
    expect: { transformIncludes: ['letter-spacing:0.2em'], finding: { rule: 'word-letter-spacing-em' } },
  },
  counterFixture: {
    html: '<p style="letter-spacing:2px">SPACED</p>',
    expect: { transformIncludes: ['letter-spacing:2px'], noFindingFor: 'word-letter-spacing-em' },
  },
};

const LINE_RULE_EXACTLY = /mso-line-height-rule\s*:\s*exactly/i;
const sheetsSetExactLines = new WeakMap<ParsedEmail, boolean>();

/** The element, or any of the email's `<style>` blocks, sets `mso-line-height-rule: exactly` (read once per email for the blocks). */
function exactLineRule(element: HtmlElement, parsed: ParsedEmail): boolean {
  if (LINE_RULE_EXACTLY.test(parsed.inlineStyles.get(element)?.value ?? '')) return true;
  let sheets = sheetsSetExactLines.get(parsed);
  if (sheets === undefined) {
    sheets = parsed.styleSheets.some((sheet) => LINE_RULE_EXACTLY.test(sheet.text));
    sheetsSetExactLines.set(parsed, sheets);
  }
  return sheets;
}

const LINE_HEIGHT_LENGTH = /^(\d+\.?\d*|\.\d+)(px|em)$/i;

/**
 * The element's own line-height is below its own font-size (both in its style attribute, px; or under 1em): certainly
 * below the font's single spacing, which Word's default "at least" line rule paints instead.
 */
function lineHeightBelowFontSize(element: HtmlElement, parsed: ParsedEmail): boolean {
  let fontSize: number | undefined;
  let lineHeight: { n: number; unit: string } | undefined;
  for (const { property, value } of inlineDeclarations(element, parsed)) {
    if (property === 'font-size') fontSize = pixels(value);
    else if (property === 'line-height') {
      const match = LINE_HEIGHT_LENGTH.exec(value.trim());
      lineHeight = match ? { n: Number(match[1]), unit: match[2].toLowerCase() } : undefined;
    }
  }
  if (!lineHeight || exactLineRule(element, parsed)) return false;
  if (lineHeight.unit === 'em') return lineHeight.n < 1;
  return fontSize !== undefined && fontSize > 0 && lineHeight.n < fontSize;
}

/**
 * The Word engine reads a line-height in px or em as a minimum ("at least") unless `mso-line-height-rule: exactly`
 * says otherwise (caniemail css-line-height note 1 gives the fix): a line-height below the font's single spacing is
 * painted at single spacing. Modeled where that is certain (below the element's own font-size) as `normal`.
 */
const wordLineHeightAtLeast: ElementBehavior = {
  id: 'word-line-height-at-least',
  kind: 'element',
  summary:
    "The Word engine treats a line-height in px or em as a minimum unless mso-line-height-rule:exactly is set: a line-height below the font size is painted at the font's single spacing.",
  evidence: [
    caniemailNote('css-line-height#1', 'em and px units behave weirdly; use mso-line-height-rule:exactly'),
    {
      url: 'https://learn.microsoft.com/en-us/previous-versions/office/developer/office-2010/cc819636(v=office.14)',
      title: 'Microsoft Learn: LineSpacingRuleValues enumeration (Auto, Exact, AtLeast: a minimum line height)',
      date: '2010',
      note: 'Word\'s line rules: "at least" is a minimum that grows to fit the text, "exact" is fixed. That the HTML engine applies "at least" to CSS line-height unless mso-line-height-rule:exactly is set is read from the caniemail note\'s advice; modeled only below the element\'s own font size, where a minimum certainly changes the line.',
    },
  ],
  properties: ['line-height'],
  valueMatches: LINE_HEIGHT_LENGTH,
  when: lineHeightBelowFontSize,
  becomes: 'normal',
  suggestion: 'Add mso-line-height-rule:exactly beside a line-height smaller than the font size (spacer cells, tight headings).',
  fixture: {
    html: '<table><tr><td style="font-size:20px;line-height:10px">Tight</td></tr></table>',
    expect: { transformIncludes: ['line-height: normal'], finding: { rule: 'word-line-height-at-least' } },
  },
  // With mso-line-height-rule:exactly, the line-height is painted as written.
  counterFixture: {
    html: '<table><tr><td style="font-size:20px;line-height:10px;mso-line-height-rule:exactly">Tight</td></tr></table>',
    expect: { transformIncludes: ['line-height:10px'], noFindingFor: 'word-line-height-at-least' },
  },
};

// ----- Gmail -----

/**
 * Gmail keeps `[attr~=value]` attribute selectors on `class` only (caniemail css-selector-attribute note 5): a
 * selector with another attribute selector is dropped, from the rules it keeps in <style> and, before it inlines
 * them, from the rules it inlines (the inliner reads the client's selector limits first).
 */
const gmailAttributeLimits: PrefixBehavior = selectorLimit({
  id: 'gmail-attribute-selector-limits',
  notes: ['css-selector-attribute#5'],
  about: '[attr~=value] on class only',
  summary:
    'Gmail keeps attribute selectors of the form [class~=value] only: a selector with another attribute or operator ([title], [href^=…], td[align=center]) is dropped, before Gmail inlines its rules.',
  drops: (selector) => attributeSelectors(selector).some(({ name, operator }) => name !== 'class' || operator !== '~='),
  html: '<html><head><style>td[class~=cell]{color:#ff0000}td[title]{background-color:#00ff00}</style></head><body><table><tr><td class="cell" title="t">x</td></tr></table></body></html>',
  gone: ['#00ff00'],
  kept: ['#ff0000'],
});

// ----- Apple Mail -----

const MIN_CONTENT = /^min-content$/i;

/**
 * Apple Mail breaks words inside an element with `width: min-content` as if `word-break: break-all` were set on it
 * (caniemail css-intrinsic-size note 2): the declaration is written beside the width.
 */
const appleMinContentBreaksWords: RewriteBehavior = {
  id: 'apple-min-content-breaks-words',
  kind: 'rewrite',
  severity: 'warning',
  label: 'width: min-content',
  summary: 'Apple Mail treats width:min-content as if word-break:break-all were set on the element: its words break at any letter to the narrowest box.',
  evidence: [caniemailNote('css-intrinsic-size#2', 'min-content acts as word-break: break-all')],
  properties: ['width'],
  valueMatches: MIN_CONTENT,
  rewrite: (d) =>
    d.property === 'width' && MIN_CONTENT.test(d.value.trim())
      ? { ...d, alongside: [{ property: 'word-break', value: 'break-all', important: d.important }] }
      : undefined,
  suggestion: 'Give the element a width in px or max-content instead of min-content.',
  fixture: {
    html: '<div style="width:min-content">Subscribe today</div>',
    expect: { transformIncludes: ['word-break: break-all'], finding: { rule: 'apple-min-content-breaks-words' } },
  },
  // fit-content and max-content keep the words whole.
  counterFixture: {
    html: '<div style="width:max-content">Subscribe today</div>',
    expect: { transformExcludes: ['break-all'], noFindingFor: 'apple-min-content-breaks-words' },
  },
};

export const SIXTH_PASS_BEHAVIORS: Partial<Record<ClientId, readonly ClientBehavior[]>> = {
  'outlook-windows-legacy': [wordDisplayNoneNestedTables, wordRowVerticalPadding, wordMarginBackground, wordLetterSpacingEm, wordLineHeightAtLeast],
  'gmail-web': [gmailAttributeLimits],
  'gmail-android': [gmailAttributeLimits],
  'gmail-ios': [gmailAttributeLimits],
  'apple-mail-macos': [appleMinContentBreaksWords],
  'apple-mail-ios': [appleMinContentBreaksWords],
};
