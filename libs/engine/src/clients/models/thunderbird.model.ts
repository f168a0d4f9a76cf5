import type { AdditionBehavior, ClientModel, DarkBehavior, RewriteBehavior } from './client-behavior';

/**
 * Thunderbird: Gecko shows the email as written, after a sanitizer pass that removes conditional CSS
 * (every top-level @media, @supports, @import, @container, @layer). In dark mode its default (from
 * Thunderbird 136, with a dark theme) is the dark reader, which removes light backgrounds and dark text
 * colors instead of inverting them; turned off, the email shows as written.
 */
const COMM_CENTRAL = 'https://github.com/mozilla/releases-comm-central';

const CONDITIONAL_AT_RULES = new Set(['media', 'supports', 'import', 'container', 'layer', 'scope', 'starting-style', 'document', '-moz-document']);

const conditionalCss: RewriteBehavior = {
  id: 'thunderbird-conditional-css-removed',
  kind: 'rewrite',
  severity: 'warning',
  label: 'conditional CSS',
  summary:
    'Thunderbird removes every top-level @media, @supports, @import, @container and @layer rule from <style> (an @media nested in a style rule survives).',
  evidence: [
    {
      url: 'https://bugzilla.mozilla.org/show_bug.cgi?id=1530106',
      title: 'Mozilla bug 1530106: strip conditional CSS rules from HTML email (pref mail.html_sanitize.drop_conditional_css, default true)',
      date: '2019-11-28',
    },
    { url: `${COMM_CENTRAL}/blob/main/mail/app/StaticPrefList.yaml`, title: 'comm-central: StaticPrefList.yaml', date: '2026-08-22' },
    {
      url: 'https://github.com/hteumeuleu/caniemail/issues/480',
      title: 'caniemail #480: nested @media works in Thunderbird while a top-level one does not',
      date: '2024-11-27',
    },
  ],
  // An @media nested in a style rule is kept over caniemail's top-level "unsupported" (caniemail #480): the
  // same prelude keeps it without a finding.
  rewriteAtRule: (name, params, nested) => {
    if (nested) return name === 'media' ? params : undefined;
    return CONDITIONAL_AT_RULES.has(name) ? null : undefined;
  },
  suggestion: 'Thunderbird shows the desktop layout: make sure it works without media queries (a fluid, hybrid layout).',
  fixture: {
    html: '<html><head><style>.col{width:50%}@media (max-width:600px){.col{width:100%}}@supports (display:grid){.col{display:grid}}</style></head><body><div class="col">x</div></body></html>',
    expect: { transformIncludes: ['.col{width:50%;}'], transformExcludes: ['@media', '@supports'], finding: { rule: 'thunderbird-conditional-css-removed' } },
  },
  // An @media nested in a style rule works in Thunderbird: kept, and no note from this rule.
  counterFixture: {
    html: '<html><head><style>.col{width:50%;@media (max-width:600px){width:100%}}</style></head><body><div class="col">x</div></body></html>',
    expect: { transformIncludes: ['@media (max-width:600px){width:100%;}'], noFindingFor: 'thunderbird-conditional-css-removed' },
  },
};

const textHtmlWrapper: AdditionBehavior = {
  id: 'thunderbird-body-wrapper',
  kind: 'addition',
  severity: 'warning',
  summary:
    'Thunderbird wraps the body\'s content in <div class="moz-text-html" lang="…">, so body > … selectors no longer match and its lang overrides the email\'s.',
  evidence: [
    {
      url: `${COMM_CENTRAL}/blob/main/mailnews/mime/src/mimethtm.cpp`,
      title: 'comm-central: mimethtm.cpp (the lang div inserted after <body>)',
      date: '2026-08-22',
    },
  ],
  wrapsBody: { open: '<div class="moz-text-html" lang="x-western">', close: '</div>' },
  breaksRules: (parsed) => parsed.styleSheets.some((sheet) => /\bbody\s*>/i.test(sheet.text)),
  disabledBy: () => false,
  restyledBy: () => false,
  suggestion: 'Do not rely on body > child selectors; put a class on the wrapper table instead.',
  fixture: {
    html: '<html><head><style>body > table{width:600px}</style></head><body><table><tr><td>x</td></tr></table></body></html>',
    expect: {
      transformIncludes: ['<body><div class="moz-text-html" lang="x-western"><table>', '</div></body>'],
      finding: { rule: 'thunderbird-body-wrapper' },
    },
  },
};

/** An image source Thunderbird fetches from the network (remote content), as opposed to cid: and data: parts. */
const REMOTE_SOURCE = /^\s*(?:https?:)?\/\//i;

const remoteImagesBlocked: RewriteBehavior = {
  id: 'thunderbird-remote-images-blocked',
  kind: 'rewrite',
  severity: 'warning',
  label: 'remote images',
  summary:
    'Thunderbird blocks remote content by default: an <img> loaded from the web shows no picture (its box and alt text stay) until the reader allows remote content for the message or the sender; cid: and data: images show.',
  evidence: [
    {
      url: `${COMM_CENTRAL}/blob/main/mailnews/mailnews.js`,
      title: 'comm-central: mailnews.js (mailnews.message_display.disable_remote_image defaults to true)',
      date: '2026-08-22',
    },
    {
      url: 'https://support.mozilla.org/kb/remote-content-in-messages',
      title: 'Mozilla support: Remote content in messages (blocked by default, allowed per message or sender)',
      date: '2025',
    },
  ],
  dropsAttributesOn: ['img'],
  dropsAttributes: (element) => {
    const source = element.attrs.find((a) => a.name === 'src' && !a.prefix)?.value;
    if (source === undefined || !REMOTE_SOURCE.test(source)) return [];
    return element.attrs.some((a) => a.name === 'srcset') ? ['src', 'srcset'] : ['src'];
  },
  suggestion: 'Give every image meaningful alt text and width and height attributes, and make sure the message reads without its images.',
  fixture: {
    html: '<p><img src="https://example.com/hero.png" alt="Spring sale" width="600" height="200"><img src="cid:logo" alt="Logo" width="100"></p>',
    expect: {
      transformIncludes: ['<img alt="Spring sale" width="600" height="200">', '<img src="cid:logo"'],
      finding: { rule: 'thunderbird-remote-images-blocked' },
    },
  },
};

const asWritten: DarkBehavior = {
  id: 'thunderbird-dark-as-written',
  kind: 'dark',
  model: 'none',
  alternative: true,
  summary:
    "Thunderbird before 136, or with the dark reader switched off (mail.dark-reader.enabled false, or the message header's toggle), shows the email as written in a dark theme (no color inversion; the email's dark query is stripped as conditional CSS).",
  evidence: [
    {
      url: `${COMM_CENTRAL}/blob/main/mail/app/profile/all-thunderbird.js`,
      title: 'comm-central: all-thunderbird.js (browser.display.document_color_use 0: page colors kept)',
      date: '2026-08-22',
    },
    {
      url: 'https://www.caniemail.com/features/css-at-media-prefers-color-scheme/',
      title: 'caniemail: prefers-color-scheme (Thunderbird 78+: not supported)',
      date: '2023-03-08',
    },
  ],
  fixture: {
    html: '<body style="background-color:#ffffff"><p style="color:#000000">Hi</p></body>',
    expect: { darkIncludes: ['background-color:#ffffff', 'color:#000000'] },
  },
};

const darkReader: DarkBehavior = {
  id: 'thunderbird-dark-reader',
  kind: 'dark',
  model: 'color-removal',
  summary:
    "Thunderbird's dark reader (mail.dark-reader.enabled; on by default from Thunderbird 136 with a dark theme, switched per message with the header toggle) removes the body's colors, bgcolor and color attributes, light backgrounds (brightness over 200 of 255, or too little contrast with their text) and dark text colors, in style attributes and <style> rules alike, over a #18181b page with #eeeef0 text: it removes colors, it does not invert them; buttons are left alone.",
  evidence: [
    {
      url: `${COMM_CENTRAL}/blob/main/mail/base/content/modules/DarkReader.mjs`,
      title: 'comm-central: DarkReader.mjs (brightness threshold 200, contrast threshold 3.5, buttons skipped, <style> rules sanitized too)',
      date: '2026-08-04',
    },
    {
      url: 'https://bugzilla.mozilla.org/show_bug.cgi?id=1942206',
      title: 'Mozilla bug 1942206: enable the dark reader by default (Thunderbird 136)',
      date: '2025-01-29',
      note: 'The newest default is shown; the email as written (the reader off, or Thunderbird before 136) is the documented alternative.',
    },
  ],
  fixture: {
    html: '<html><head><style>.card{background-color:#fafafa;color:#222222}</style></head><body bgcolor="#ffffff" style="background-color:#ffffff"><table><tr><td bgcolor="#eeeeee" class="card"><p style="color:#000000">Hi</p><p style="color:#ffffff;background-color:#003366">Dark</p></td></tr></table></body></html>',
    expect: {
      darkIncludes: ['background-color: #18181b', '<td class="card">', '<p>Hi</p>', 'style="color:#ffffff;background-color:#003366"'],
      darkExcludes: ['bgcolor', 'background-color:#ffffff', '#fafafa', '#222222'],
    },
  },
};

export const THUNDERBIRD_MODEL: ClientModel = {
  client: 'thunderbird',
  engine: 'Gecko',
  checkedAt: '2026-11-27',
  behaviors: [conditionalCss, textHtmlWrapper, remoteImagesBlocked, darkReader, asWritten],
};
