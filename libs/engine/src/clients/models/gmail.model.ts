import { bodyToDiv } from './body-to-div';
import { GMAIL_CLIP_LIMIT_BYTES } from '../inbox-limits';
import type { ClientBehavior, ClientModel, DarkBehavior, DropBlockBehavior, RewriteBehavior, SanitizeBehavior } from './client-behavior';
import {
  EMPTY_VAR_FALLBACK,
  ESCAPED_SELECTOR,
  LIGHTNESS_COLOR_FUNCTION,
  NEGATIVE_LENGTH,
  SPACE_SEPARATED_RGB,
  STRAY_VALUE_CHARACTERS,
  UPPERCASE_IMPORTANT,
  findNode,
  hasStrayCharacter,
  outsideStringsAndUrls,
  withoutTemplateTags,
  PREFIXED_ATTRIBUTE_LIMIT,
  readsPrefixedAttribute,
} from './css-text';

/**
 * Gmail with a Google account (web, Android and iOS apps share one sanitizer): a strict CSS parser that
 * throws away a whole `<style>` block, or a whole `style` attribute, over one construct it rejects.
 */
const GMAIL_RESPONSIVE_2017 = {
  url: 'https://www.hteumeuleu.com/2017/troubleshooting-gmail-s-responsive-design-support/',
  title: "Rémi Parmentier, Troubleshooting Gmail's responsive design support",
  date: '2017-01-05',
};
const GMAIL_2019 = {
  url: 'https://www.hteumeuleu.com/2019/trying-to-make-sense-of-gmail-css-support-2019-edition/',
  title: 'Rémi Parmentier, Trying to make sense of Gmail CSS support, 2019 edition',
  date: '2019-10-05',
};

/** Gmail's limit on the email's `<style>` text, all blocks together (email-bugs #90). */
export const GMAIL_STYLE_LIMIT_BYTES = 16384;

const styleSizeLimit: DropBlockBehavior = {
  id: 'gmail-style-size-limit',
  kind: 'drop-block',
  scope: 'block',
  severity: 'error',
  summary: `Gmail removes every <style> block once the email's <style> text passes ${GMAIL_STYLE_LIMIT_BYTES} bytes (16 KB) in all.`,
  evidence: [
    { url: 'https://github.com/hteumeuleu/email-bugs/issues/90', title: 'email-bugs #90: Gmail styles limit (open)', date: '2021-03-02' },
    { url: 'https://www.caniemail.com/features/html-style/', title: 'caniemail: <style> (Gmail note: limited to 16 KB)', date: '2023-01' },
    {
      url: 'https://github.com/hteumeuleu/caniemail/issues/144',
      title: 'caniemail #144 (maintainer: the tags that reach the 16 KB limit are removed)',
      date: '2021-03-30',
      note: 'Older accounts kept the blocks before the limit; a 2026 reproduction citing #90 saw every block removed. The newer behavior is modeled.',
    },
  ],
  find: (facts) => (facts.totalStyleBytes > GMAIL_STYLE_LIMIT_BYTES ? { label: '<style> over 16 KB' } : undefined),
  suggestion: 'Keep all <style> text under 16 KB: minify it, purge unused rules, and inline what does not need a media query.',
  fixture: {
    html: `<html><head><style>.keep{color:#ff0000}${'p.filler{margin:0;padding:0;color:#000001}'.repeat(420)}</style></head><body><p class="keep">x</p></body></html>`,
    expect: { transformExcludes: ['color:#ff0000', 'color: #ff0000'], finding: { rule: 'gmail-style-size-limit', severity: 'error' } },
  },
};

const nestedAtRule: DropBlockBehavior = {
  id: 'gmail-nested-at-rule',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary: 'Gmail removes a <style> block that holds an at-rule nested in another at-rule (@font-face or @media inside @media).',
  evidence: [
    GMAIL_RESPONSIVE_2017,
    { url: 'https://github.com/hteumeuleu/caniemail/issues/144', title: 'caniemail #144 (maintainer restates the rule)', date: '2021-03-30' },
    { url: 'https://www.caniemail.com/features/css-at-media/', title: 'caniemail: @media (Gmail: nested media queries not supported)', date: '2019-08' },
  ],
  find: ({ sheet }) => {
    const node = findNode(sheet.root, (n) => n.type === 'atrule' && n.parent?.type === 'atrule');
    return node && node.type === 'atrule' ? { node, label: `@${node.name} inside @${(node.parent as { name: string }).name}` } : undefined;
  },
  suggestion: 'Move the nested at-rule (@font-face, @import, a second @media) to the top level of its own <style> block.',
  fixture: {
    html: '<html><head><style>.a{color:#ff0000} @media screen{ @font-face{font-family:X;src:local(Arial)} .a{font-size:20px} }</style></head><body><p class="a">x</p></body></html>',
    expect: { transformExcludes: ['color:#ff0000', 'color: #ff0000'], finding: { rule: 'gmail-nested-at-rule' } },
  },
};

const uppercaseImportantBlock: DropBlockBehavior = {
  id: 'gmail-uppercase-important',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary: 'Gmail removes a <style> block with !important written in any uppercase letter (!IMPORTANT).',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/13',
      title: 'email-bugs #13: Gmail removes <style> tags or style attributes that contain an uppercase !IMPORTANT (open)',
      date: '2018-01-30',
    },
    { url: 'https://www.caniemail.com/features/css-important/', title: 'caniemail: !important (Gmail: lowercase only)', date: '2021-11-30' },
  ],
  find: ({ sheet }) =>
    UPPERCASE_IMPORTANT.test(sheet.text)
      ? {
          node: findNode(sheet.root, (n) => n.type === 'decl' && n.important === true && UPPERCASE_IMPORTANT.test(n.raws.important ?? '')),
          label: '!IMPORTANT',
        }
      : undefined,
  suggestion: 'Write !important in lowercase.',
  fixture: {
    html: '<html><head><style>.a{color:#ff0000 !IMPORTANT}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformExcludes: ['color:#ff0000', 'color: #ff0000'], finding: { rule: 'gmail-uppercase-important' } },
  },
};

const uppercaseImportantAttribute: RewriteBehavior = {
  id: 'gmail-uppercase-important-attribute',
  kind: 'rewrite',
  severity: 'warning',
  label: 'style attribute with !IMPORTANT',
  summary: 'Gmail removes a whole style attribute with !important written in any uppercase letter.',
  evidence: uppercaseImportantBlock.evidence,
  dropsStyleAttribute: (raw) => UPPERCASE_IMPORTANT.test(raw),
  suggestion: 'Write !important in lowercase.',
  fixture: {
    html: '<p style="color:#ff0000 !IMPORTANT;font-size:20px">x</p>',
    expect: { transformIncludes: ['<p>x</p>'], finding: { rule: 'gmail-uppercase-important-attribute' } },
  },
};

const spaceSeparatedRgbBlock: DropBlockBehavior = {
  id: 'gmail-space-separated-rgb',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary: 'Gmail removes a <style> block with a space-separated rgb()/rgba() color (rgb(0 128 0)).',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/160',
      title: 'email-bugs #160: Gmail removed styles with white space color syntax (open)',
      date: '2025-12-18',
    },
    { url: 'https://www.caniemail.com/features/css-rgb/', title: 'caniemail: rgb()', date: '2021-08' },
  ],
  find: ({ sheet }) =>
    SPACE_SEPARATED_RGB.test(sheet.text)
      ? { node: findNode(sheet.root, (n) => n.type === 'decl' && SPACE_SEPARATED_RGB.test(n.value)), label: 'space-separated rgb()' }
      : undefined,
  suggestion: 'Write colors as hex or comma-separated rgb(0, 128, 0).',
  fixture: {
    html: '<html><head><style>.a{color:rgb(255 0 0);font-size:20px}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformExcludes: ['font-size:20px', 'font-size: 20px'], finding: { rule: 'gmail-space-separated-rgb' } },
  },
};

const spaceSeparatedRgbAttribute: RewriteBehavior = {
  id: 'gmail-space-separated-rgb-attribute',
  kind: 'rewrite',
  severity: 'warning',
  label: 'style attribute with space-separated rgb()',
  summary: 'Gmail removes a whole style attribute with a space-separated rgb()/rgba() color.',
  evidence: spaceSeparatedRgbBlock.evidence,
  dropsStyleAttribute: (raw) => SPACE_SEPARATED_RGB.test(raw),
  suggestion: 'Write colors as hex or comma-separated rgb(0, 128, 0).',
  fixture: {
    html: '<p style="color:rgb(0 0 255 / 1);text-align:center">x</p>',
    expect: { transformIncludes: ['<p>x</p>'], finding: { rule: 'gmail-space-separated-rgb-attribute' } },
  },
};

const strayCharacterAttribute: RewriteBehavior = {
  id: 'gmail-invalid-character-attribute',
  kind: 'rewrite',
  severity: 'warning',
  label: 'style attribute with an invalid character',
  summary: 'Gmail removes a whole style attribute when a declaration holds a character its parser rejects (=, *, an IE hack such as \\9).',
  evidence: [GMAIL_RESPONSIVE_2017, GMAIL_2019],
  dropsStyleAttribute: hasStrayCharacter,
  suggestion: 'Remove the stray character (or the IE hack); quote values that need one.',
  fixture: {
    html: '<div style="background:#3cbc67; font-size:3*px;">x</div><p style="color:#000000; width=300px">y</p>',
    expect: { transformIncludes: ['<div>x</div>', '<p>y</p>'], finding: { rule: 'gmail-invalid-character-attribute' } },
  },
  // Merge tags are filled in before sending: their braces and bars are no stray characters.
  counterFixture: {
    html: '<p style="color:{{ brand_color }};font-size:16px{% if big %};font-weight:bold{% endif %}">Hi *|FNAME|*</p><p style="border-color:*|BRAND|*">x</p>',
    expect: { transformIncludes: ['color:{{ brand_color }}'], noFindingFor: 'gmail-invalid-character-attribute' },
  },
};

const strayCharacterBlock: DropBlockBehavior = {
  id: 'gmail-invalid-character',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary: 'Gmail removes a <style> block when a declaration value holds a character its parser rejects (*, =, an IE hack such as \\9).',
  evidence: [GMAIL_RESPONSIVE_2017, GMAIL_2019],
  find: ({ sheet }) => {
    const node = findNode(
      sheet.root,
      (n) => n.type === 'decl' && STRAY_VALUE_CHARACTERS.test(outsideStringsAndUrls(withoutTemplateTags(n.raws.value?.raw ?? n.value))),
    );
    return node ? { node, label: 'invalid character in a value' } : undefined;
  },
  suggestion: 'Remove the stray character (or the IE hack) from the value.',
  fixture: {
    html: '<html><head><style>.a{color:#ff0000; color:red\\9}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformExcludes: ['color:#ff0000', 'color: #ff0000'], finding: { rule: 'gmail-invalid-character' } },
  },
};

const escapedSelector: DropBlockBehavior = {
  id: 'gmail-escaped-selector',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary: 'Gmail removes a <style> block with an escaped character in a selector (Tailwind-style .sm\\:w-full or .w-1\\/2).',
  evidence: [
    {
      url: 'https://github.com/resend/react-email/issues/1095',
      title: 'react-email #1095: Gmail strips the styles completely (escaped class names)',
      date: '2023-12-12',
    },
    {
      url: 'https://github.com/Slicejack/bojler/issues/132',
      title: "bojler #132: Gmail ignores @media blocks with class names containing ':' or '@'",
      date: '2019-10-23',
    },
    { url: 'https://github.com/shellscape/jsx-email/issues/110', title: 'jsx-email #110: escaped class names break Gmail', date: '2023-12-25' },
  ],
  find: ({ sheet }) => {
    const node = findNode(sheet.root, (n) => n.type === 'rule' && ESCAPED_SELECTOR.test(n.selector));
    return node ? { node, label: 'escaped selector' } : undefined;
  },
  suggestion: "Rename classes with escaped characters (sm:w-full -> sm-w-full), as Maizzle's safeClassNames does.",
  fixture: {
    html: '<html><head><style>.a{color:#ff0000} @media (max-width:600px){.sm\\:w-full{width:100%}}</style></head><body><p class="a sm:w-full">x</p></body></html>',
    expect: { transformExcludes: ['color:#ff0000', 'color: #ff0000'], finding: { rule: 'gmail-escaped-selector' } },
  },
};

const emptyVarFallback: DropBlockBehavior = {
  id: 'gmail-empty-var-fallback',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary: 'Gmail removes a <style> block with a var() whose fallback is empty (var(--x,)), as Tailwind writes them.',
  evidence: [
    {
      url: 'https://github.com/resend/react-email/issues/3480',
      title: 'react-email #3480: Tailwind print styles break Gmail media queries',
      date: '2026-05-07',
    },
    { url: 'https://github.com/resend/react-email/pull/3542', title: 'react-email #3542: strip empty-fallback var() for Gmail', date: '2026-05-26' },
  ],
  find: ({ sheet }) => {
    const node = findNode(sheet.root, (n) => n.type === 'decl' && EMPTY_VAR_FALLBACK.test(n.value));
    return node ? { node, label: 'var() with an empty fallback' } : undefined;
  },
  suggestion: 'Resolve custom properties to static values before sending.',
  fixture: {
    html: '<html><head><style>.a{color:#ff0000;--tw-ring:var(--x,)}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformExcludes: ['color:#ff0000', 'color: #ff0000'], finding: { rule: 'gmail-empty-var-fallback' } },
  },
};

const styleInBody: DropBlockBehavior = {
  id: 'gmail-style-in-body',
  kind: 'drop-block',
  scope: 'block',
  severity: 'warning',
  summary: 'Gmail removes a <style> block placed in <body> (one written inside a second <head> there is kept).',
  evidence: [
    { url: 'https://www.caniemail.com/features/html-style/', title: 'caniemail: <style> (Gmail: not supported inside <body>)', date: '2023-01' },
    { url: 'https://github.com/MyIntervals/emogrifier/issues/634', title: 'emogrifier #634: Gmail strips <style> moved into <body>', date: '2018-12' },
    {
      url: 'https://github.com/hteumeuleu/caniemail/issues/397',
      title: 'caniemail #397: <style> in a second <head> inside <body> works in Gmail',
      date: '2024-02-01',
    },
  ],
  find: ({ sheet, inBody, parsed }) => {
    if (!inBody) return undefined;
    const start = sheet.element.sourceCodeLocation?.startOffset;
    if (start !== undefined) {
      const before = parsed.source.slice(0, start);
      const bodyAt = before.search(/<body[\s>][\s\S]*$/i);
      if (bodyAt >= 0 && /<head[\s>]/i.test(before.slice(bodyAt))) return undefined;
    }
    return { label: '<style> in <body>' };
  },
  suggestion: 'Move the <style> block into <head>.',
  fixture: {
    html: '<html><head></head><body><style>.a{color:#ff0000}</style><p class="a">x</p></body></html>',
    expect: { transformExcludes: ['color:#ff0000', 'color: #ff0000'], finding: { rule: 'gmail-style-in-body' } },
  },
};

const lightnessColorAttribute: RewriteBehavior = {
  id: 'gmail-lightness-color-attribute',
  kind: 'rewrite',
  severity: 'warning',
  label: 'style attribute with lch()/oklch()/lab()',
  summary: 'Gmail removes a whole style attribute that uses lch(), oklch(), lab() or oklab().',
  evidence: [{ url: 'https://www.caniemail.com/features/css-modern-color/', title: 'caniemail: modern color functions (Gmail note 2)', date: '2023-01' }],
  dropsStyleAttribute: (raw) => LIGHTNESS_COLOR_FUNCTION.test(raw),
  suggestion: 'Give a hex color (a static fallback) instead of lch()/oklch().',
  fixture: {
    html: '<p style="color:oklch(60% 0.1 30);font-size:20px">x</p>',
    expect: { transformIncludes: ['<p>x</p>'], finding: { rule: 'gmail-lightness-color-attribute' } },
  },
};

const negativeMargins: RewriteBehavior = {
  id: 'gmail-negative-margin',
  kind: 'rewrite',
  severity: 'warning',
  label: 'negative margin',
  summary: 'Gmail removes margin declarations with a negative value.',
  evidence: [
    { url: 'https://www.caniemail.com/features/css-margin/', title: 'caniemail: margin (Gmail: negative values not supported)', date: '2019-10' },
    GMAIL_2019,
  ],
  properties: ['margin*'],
  rewrite: (d) => (d.property.startsWith('margin') && NEGATIVE_LENGTH.test(d.value) ? null : undefined),
  suggestion: 'Lay the email out with tables and padding instead of negative margins.',
  fixture: {
    html: '<div style="margin:-10px 0 0 0;color:#333333">x</div>',
    expect: { transformIncludes: ['style="color: #333333"'], transformExcludes: ['margin'], finding: { rule: 'gmail-negative-margin' } },
  },
};

const classPrefix = {
  id: 'gmail-class-prefix',
  kind: 'prefix' as const,
  summary: 'Gmail renames class and id names with an m_ prefix (plus a per-message number) in the markup and in the <style> rules it keeps.',
  evidence: [
    {
      url: 'https://www.hteumeuleu.com/2021/fixing-gmail-dark-mode-css-blend-modes/',
      title: 'Rémi Parmentier, Fixing Gmail dark mode with CSS blend modes',
      date: '2021-04-09',
    },
    GMAIL_RESPONSIVE_2017,
    { url: 'https://www.caniemail.com/features/html-aria-labelledby/', title: 'caniemail: aria-labelledby (Gmail: id prefix mismatched)', date: '2022-04' },
  ],
  classPrefix: 'm_',
  idPrefix: 'm_',
  selectorLimit: (selector: string) => (readsPrefixedAttribute(selector) ? PREFIXED_ATTRIBUTE_LIMIT : undefined),
  fixture: {
    html: '<html><head><style>@media (max-width:600px){.col{width:100% !important}}</style></head><body><div class="col" id="main">x</div></body></html>',
    expect: { transformIncludes: ['class="m_col"', 'id="m_main"', '.m_col{'] },
  },
};

const bodyAttributes = bodyToDiv('gmail-body-to-div', 'Gmail', [
  { url: 'https://github.com/hteumeuleu/caniemail/issues/212', title: 'caniemail #212: <body> element (Gmail test results)', date: '2021-11-30' },
  { url: 'https://www.caniemail.com/features/html-body/', title: 'caniemail: <body> (Gmail: replaced by a <div>)', date: '2021-11-30' },
  { url: 'https://github.com/resend/react-email/issues/670', title: 'react-email #670: body background stripped in Gmail', date: '2023-05-05' },
]);

/** Filler that pushes a fixture past the clipping limit (a long paragraph that starts before the cut). */
const CLIP_FILLER = 'lorem ipsum '.repeat(Math.ceil(GMAIL_CLIP_LIMIT_BYTES / 12) + 200);

const messageClipped: SanitizeBehavior = {
  id: 'gmail-message-clipped',
  kind: 'sanitize',
  severity: 'warning',
  clipsAfterBytes: GMAIL_CLIP_LIMIT_BYTES,
  clipNotice: '<div>[Message clipped]&nbsp; View entire message</div>',
  summary:
    'Gmail shows a message whose HTML passes about 102 KB only up to that point: what comes after (footer, unsubscribe link, open pixel) is hidden behind "[Message clipped] View entire message".',
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/41',
      title: 'email-bugs #41: Gmail clips emails at 102 kB or with special characters (open)',
      date: '2018-05-17',
      note: "The thread's tests put the cut near 102 KB of the HTML, but not exactly (sizes after the ESP's additions vary); the model cuts at 102 KiB of the HTML as submitted, where the size report warns. Clipping triggered by some special characters in small emails is not modeled.",
    },
  ],
  suggestion: 'Keep the HTML under 102 KB: remove white space and unused CSS, shorten tracking URLs, or split the content.',
  fixture: {
    html: `<html><head></head><body><p>${CLIP_FILLER}</p><p>Unsubscribe here</p></body></html>`,
    expect: { transformIncludes: ['[Message clipped]', 'lorem ipsum'], transformExcludes: ['Unsubscribe here'] },
  },
  // A message under the limit is shown whole.
  counterFixture: {
    html: '<html><head></head><body><p>Short</p><p>Unsubscribe here</p></body></html>',
    expect: { transformIncludes: ['Unsubscribe here'], transformExcludes: ['[Message clipped]'] },
  },
};

const GMAIL_SHARED: readonly ClientBehavior[] = [
  styleSizeLimit,
  nestedAtRule,
  uppercaseImportantBlock,
  uppercaseImportantAttribute,
  spaceSeparatedRgbBlock,
  spaceSeparatedRgbAttribute,
  strayCharacterBlock,
  strayCharacterAttribute,
  escapedSelector,
  emptyVarFallback,
  styleInBody,
  lightnessColorAttribute,
  negativeMargins,
  bodyAttributes,
  classPrefix,
  messageClipped,
];

const DARK_GUIDE = {
  url: 'https://www.litmus.com/blog/the-ultimate-guide-to-dark-mode-for-email-marketers',
  title: 'Litmus: The ultimate guide to dark mode for email marketers',
  date: '2024',
};

const webDark: DarkBehavior = {
  id: 'gmail-web-dark',
  kind: 'dark',
  model: 'none',
  summary: 'Gmail on the web darkens only its own interface; the email keeps its colors.',
  evidence: [
    DARK_GUIDE,
    {
      url: 'https://www.caniemail.com/features/css-at-media-prefers-color-scheme/',
      title: 'caniemail: prefers-color-scheme (Gmail: not supported)',
      date: '2023-03-08',
    },
  ],
  // The email's dark rules must not reach the dark view (an untouched email's would).
  fixture: {
    html: '<html><head><style>.a{color:#000000}@media (prefers-color-scheme:dark){.a{color:#ffffff}}</style></head><body style="background-color:#ffffff"><p class="a">x</p></body></html>',
    expect: { darkIncludes: ['background-color:#ffffff'], darkExcludes: ['prefers-color-scheme:dark'] },
  },
};

const androidDark: DarkBehavior = {
  id: 'gmail-android-dark',
  kind: 'dark',
  model: 'partial-inversion',
  summary: 'Gmail for Android darkens light backgrounds and lightens dark text; dark areas stay (partial inversion).',
  evidence: [
    DARK_GUIDE,
    { url: 'https://www.hteumeuleu.com/2021/fixing-gmail-dark-mode-css-blend-modes/', title: 'Rémi Parmentier, Fixing Gmail dark mode', date: '2021-04-09' },
  ],
  fixture: {
    html: '<body><table><tr><td style="background-color:#ffffff;color:#000000">x</td><td style="background-color:#111111;color:#eeeeee">y</td></tr></table></body>',
    expect: { darkExcludes: ['background-color:#ffffff'], darkIncludes: ['style="background-color:#111111;color:#eeeeee"'] },
  },
};

const iosDark: DarkBehavior = {
  id: 'gmail-ios-dark',
  kind: 'dark',
  model: 'full-inversion',
  summary: 'Gmail for iOS inverts every color, dark ones included (full inversion), and offers no way to target it.',
  evidence: [
    DARK_GUIDE,
    { url: 'https://www.hteumeuleu.com/2021/fixing-gmail-dark-mode-css-blend-modes/', title: 'Rémi Parmentier, Fixing Gmail dark mode', date: '2021-04-09' },
  ],
  fixture: {
    html: '<body><table><tr><td style="background-color:#111111;color:#eeeeee">x</td></tr></table></body>',
    expect: { darkExcludes: ['background-color:#111111', 'color:#eeeeee'] },
  },
};

const CHECKED = '2026-11-27';

export const GMAIL_MODELS: Record<'gmail-web' | 'gmail-android' | 'gmail-ios', ClientModel> = {
  'gmail-web': { client: 'gmail-web', engine: 'Blink', checkedAt: CHECKED, behaviors: [...GMAIL_SHARED, webDark] },
  'gmail-android': { client: 'gmail-android', engine: 'Blink', checkedAt: CHECKED, behaviors: [...GMAIL_SHARED, androidDark] },
  'gmail-ios': { client: 'gmail-ios', engine: 'WebKit', checkedAt: CHECKED, behaviors: [...GMAIL_SHARED, iosDark] },
};
