import type { ClientId } from '../email-client';
import type { InventoryDecision } from './inventory-types';

/**
 * Behaviours established from the vendors' own pages and the open-source clients' code (docs/clients.md,
 * "Behaviour inventory"), one entry per fact, in our words, with the clients it concerns. Most back a model
 * behaviour (its evidence cites the same page); the others say why they are not modeled.
 */
export interface VendorFact {
  /** Stable id: `<vendor>-<fact>`. */
  id: string;
  subject: string;
  url: string;
  date: string;
  clients: readonly ClientId[];
  decision: InventoryDecision;
}

const READ = '2026-12-07';
const modeled = (behavior: string): InventoryDecision => ({ state: 'modeled', behavior });
const userSetting = (why: string): InventoryDecision => ({ state: 'not-modeled', reason: 'user-setting', why, date: READ });
const gap = (why: string): InventoryDecision => ({ state: 'not-modeled', reason: 'gap', why, date: READ });
const disputed = (why: string): InventoryDecision => ({ state: 'not-modeled', reason: 'disputed', why, date: READ });
const notInMarkup = (why: string): InventoryDecision => ({ state: 'not-modeled', reason: 'not-in-markup', why, date: READ });
const notApplicable = (why: string): InventoryDecision => ({ state: 'not-applicable', why });
/** The fact restates a caniemail flag (unsupported) that the support layer applies: the property or element is dropped and reported. */
const SUPPORT = modeled('caniemail-support');

const WORD_TABLE = 'https://learn.microsoft.com/en-us/previous-versions/office/developer/office-2007/aa338201(v=office.12)';
const PROTON = 'https://github.com/ProtonMail/WebClients/blob/main/packages';
const COMM_CENTRAL = 'https://github.com/mozilla/releases-comm-central/blob/main';
const GMAIL_CSS = 'https://developers.google.com/workspace/gmail/design/css';
const WORD: readonly ClientId[] = ['outlook-windows-legacy'];
const GMAIL: readonly ClientId[] = ['gmail-web', 'gmail-android', 'gmail-ios'];

export const VENDOR_FACTS: readonly VendorFact[] = [
  // Microsoft: the Word 2007 HTML and CSS rendering tables (still the engine of classic Outlook for Windows).
  {
    id: 'word-table-padding',
    subject: 'padding works on table cells only',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: modeled('word-padding-table-cells'),
  },
  {
    id: 'word-table-width',
    subject: 'width is ignored on body, span, div, p and img',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: modeled('word-width-elements'),
  },
  {
    id: 'word-table-height',
    subject: 'height is ignored on body, span, div and p',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: modeled('word-height-elements'),
  },
  {
    id: 'word-table-border-sides',
    subject: 'one-side borders are ignored on inline and block text elements',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: modeled('word-border-sides-elements'),
  },
  {
    id: 'word-table-margin',
    subject: 'margin is ignored on body, span, a and img',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: modeled('word-margin-elements'),
  },
  {
    id: 'word-table-background-image',
    subject: 'CSS background images are not rendered (VML is the way)',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: modeled('caniemail-support'),
  },
  {
    id: 'word-table-float',
    subject: 'float is not supported (tables with align are the way)',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: SUPPORT,
  },
  {
    id: 'word-table-position',
    subject: 'position and the top, right, bottom and left offsets are not supported',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: SUPPORT,
  },
  {
    id: 'word-table-min-max-sizes',
    subject: 'min-width, min-height and max-height are not supported (max-width only on tables)',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: SUPPORT,
  },
  {
    id: 'word-table-display',
    subject: 'display is read for none only',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: modeled('word-display-only-none'),
  },
  {
    id: 'word-table-css2-effects',
    subject: 'CSS beyond level 1 effects (opacity, shadows, border-radius, z-index, overflow, visibility) are not supported',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: SUPPORT,
  },
  {
    id: 'word-table-forms',
    subject: 'forms and their controls (form, input, select, textarea, button) are not supported',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: SUPPORT,
  },
  {
    id: 'word-table-embedded-media',
    subject: 'object, video, audio and SVG content is not rendered',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: SUPPORT,
  },
  {
    id: 'word-table-animated-gif',
    subject: 'an animated GIF shows its first frame only',
    url: WORD_TABLE,
    date: '2006',
    clients: WORD,
    decision: notInMarkup('image decoding: the markup and CSS are the same; only the frame shown differs'),
  },
  // Google: Gmail's CSS support page.
  {
    id: 'gmail-page-style-in-head',
    subject: 'Gmail supports <style> in the <head> (with media queries); a block elsewhere is not promised',
    url: GMAIL_CSS,
    date: '2025',
    clients: GMAIL,
    decision: modeled('gmail-style-in-body'),
  },
  {
    id: 'gmail-page-selectors',
    subject: 'Gmail supports class, element and id selectors (renamed with its own prefix)',
    url: GMAIL_CSS,
    date: '2025',
    clients: GMAIL,
    decision: modeled('gmail-class-prefix'),
  },
  {
    id: 'gmail-page-media-queries',
    subject: 'media queries apply on the all and screen types and on width, device width, orientation and resolution only',
    url: GMAIL_CSS,
    date: '2025',
    clients: GMAIL,
    decision: modeled('gmail-media-query-allowlist'),
  },
  {
    id: 'gmail-page-height-queries',
    subject: 'queries on height or aspect ratio are not among the supported ones',
    url: GMAIL_CSS,
    date: '2025',
    clients: GMAIL,
    decision: modeled('gmail-height-media-queries'),
  },
  {
    id: 'gmail-page-property-list',
    subject: 'the page lists the CSS properties Gmail supports; others may be ignored',
    url: GMAIL_CSS,
    date: '2025',
    clients: GMAIL,
    decision: disputed(
      "caniemail's tests (2019-2025) are newer than the page's list and test each property in Gmail; where the two differ the model follows caniemail's per-property flags",
    ),
  },
  {
    id: 'gmail-page-non-google-accounts',
    subject: "Gmail's apps show an email without <style> support for accounts that are not Google's",
    url: GMAIL_CSS,
    date: '2025',
    clients: ['gmail-android', 'gmail-ios'],
    decision: userSetting("depends on the reader's account type; Mailproof models a Google account"),
  },
  // Apple: WebKit's dark-mode notes (Apple Mail paints with WebKit).
  {
    id: 'webkit-color-scheme',
    subject: 'a page opts in to dark mode with color-scheme (meta or CSS); without it, dark rules are not applied by Mail',
    url: 'https://webkit.org/blog/8840/dark-mode-support-in-webkit/',
    date: '2019',
    clients: ['apple-mail-macos', 'apple-mail-ios'],
    decision: modeled('apple-dark-color-scheme'),
  },
  // Proton: the web client's sanitizer and renderer (open source).
  {
    id: 'proton-style-kept',
    subject: '<style> blocks are kept with their selectors, in a sandboxed frame',
    url: `${PROTON}/shared/lib/sanitize/purify.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-style-kept'),
  },
  {
    id: 'proton-forms-media-removed',
    subject: 'form controls, media elements and inline SVG are removed',
    url: `${PROTON}/shared/lib/sanitize/purify.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-media-and-forms-removed'),
  },
  {
    id: 'proton-comments-removed',
    subject: 'HTML comments (conditional comments included) are removed before sanitizing',
    url: `${PROTON}/mail-renderer/helpers/transforms/transformEscape.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-comments-removed'),
  },
  {
    id: 'proton-position',
    subject: 'absolute, fixed and sticky positions are neutralized',
    url: `${PROTON}/shared/lib/sanitize/escape.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-position-rewrite'),
  },
  {
    id: 'proton-offsets',
    subject: 'inline left, right, top and inset offsets are unset',
    url: `${PROTON}/mail-renderer/helpers/transforms/transformStyleAttributes.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-inline-offsets-unset'),
  },
  {
    id: 'proton-heights',
    subject: 'percentage and viewport heights are unset or set to auto',
    url: `${PROTON}/shared/lib/sanitize/escape.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-height-rewrite'),
  },
  {
    id: 'proton-negative-margins',
    subject: 'inline negative margins are unset',
    url: `${PROTON}/mail-renderer/helpers/transforms/transformStyleAttributes.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-negative-margins-unset'),
  },
  {
    id: 'proton-style-urls',
    subject: 'url() in <style> is escaped so it never loads',
    url: `${PROTON}/shared/lib/sanitize/escape.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-style-urls-blocked'),
  },
  {
    id: 'proton-color-scheme',
    subject: 'color-scheme is renamed, so dark-mode queries never match',
    url: `${PROTON}/shared/lib/sanitize/escape.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-color-scheme-disabled'),
  },
  {
    id: 'proton-height-queries',
    subject: 'top-level media queries that test a height are deleted',
    url: `${PROTON}/mail-renderer/src/helpers/transforms/transformStylesheet.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-height-media-queries-removed'),
  },
  {
    id: 'proton-body-wrapper',
    subject: "only the body's style and class move to the renderer's wrapper",
    url: `${PROTON}/mail-renderer/src/helpers/getIframeHtml.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-body-to-div'),
  },
  {
    id: 'proton-raw-links',
    subject: 'https:// addresses written as plain text are turned into links (not inside links, pre or code; http://, www. and bare hosts are not)',
    url: `${PROTON}/mail-renderer/src/helpers/transforms/transformRawLinks.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-raw-urls-linked'),
  },
  {
    id: 'proton-links-new-tab',
    subject: 'links get target="_blank" (the sanitizer keeps target; the link transform sets it)',
    url: `${PROTON}/shared/lib/sanitize/purify.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('links-target-blank'),
  },
  {
    id: 'proton-nested-anchors',
    subject: 'a named anchor without href that holds a link is turned into a <span>',
    url: `${PROTON}/mail-renderer/src/helpers/transforms/transformAnchors.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: notApplicable("the HTML parser never nests an <a> in another from markup, so no email's markup reaches this case"),
  },
  {
    id: 'proton-svg-renamed',
    subject: 'inline <svg> is renamed (proton-svg), so it is not drawn',
    url: `${PROTON}/shared/lib/sanitize/purify.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: modeled('proton-media-and-forms-removed'),
  },
  {
    id: 'proton-remote-images',
    subject: 'remote images wait for the reader to load them (a setting)',
    url: `${PROTON}/mail-renderer`,
    date: '2026',
    clients: ['protonmail'],
    decision: userSetting("depends on the reader's remote-content setting"),
  },
  {
    id: 'proton-added-line-height',
    subject: "the renderer's own stylesheet sets a line height on the message",
    url: `${PROTON}/mail-renderer/src/helpers/getIframeHtml.ts`,
    date: '2026',
    clients: ['protonmail'],
    decision: gap('CSS the client adds around the email; no hook for client-added CSS yet'),
  },
  // Thunderbird: comm-central (open source).
  {
    id: 'thunderbird-conditional-css',
    subject: 'conditional CSS (@media, @supports …) is dropped from HTML mail by default',
    url: 'https://bugzilla.mozilla.org/show_bug.cgi?id=1530106',
    date: '2019-11-28',
    clients: ['thunderbird'],
    decision: modeled('thunderbird-conditional-css-removed'),
  },
  {
    id: 'thunderbird-body-wrapper',
    subject: "the body's content is wrapped in a moz-text-html div with a lang",
    url: `${COMM_CENTRAL}/mailnews/mime/src/mimethtm.cpp`,
    date: '2026-08-22',
    clients: ['thunderbird'],
    decision: modeled('thunderbird-body-wrapper'),
  },
  {
    id: 'thunderbird-dark-reader',
    subject: 'the dark reader recolors messages, on by default with a dark theme from Thunderbird 136',
    url: 'https://bugzilla.mozilla.org/show_bug.cgi?id=1942206',
    date: '2025-01-29',
    clients: ['thunderbird'],
    decision: modeled('thunderbird-dark-reader'),
  },
  {
    id: 'thunderbird-remote-content',
    subject: 'remote content is blocked until the reader allows it',
    url: `${COMM_CENTRAL}/mailnews/mailnews.js`,
    date: '2026-08-22',
    clients: ['thunderbird'],
    decision: modeled('thunderbird-remote-images-blocked'),
  },
  {
    id: 'thunderbird-remote-css-images',
    subject: 'the remote-content block covers background images loaded by CSS',
    url: `${COMM_CENTRAL}/mailnews/mailnews.js`,
    date: '2026-08-22',
    clients: ['thunderbird'],
    decision: modeled('thunderbird-remote-css-images-blocked'),
  },
  {
    id: 'thunderbird-remote-stylesheets',
    subject: 'the remote-content block covers style sheets linked from the web (caniemail flags <link rel="stylesheet"> unsupported since 78.5)',
    url: `${COMM_CENTRAL}/mailnews/mailnews.js`,
    date: '2026-08-22',
    clients: ['thunderbird'],
    decision: SUPPORT,
  },
  {
    id: 'thunderbird-javascript-disabled',
    subject: 'JavaScript does not run in messages',
    url: `${COMM_CENTRAL}/mail/app/profile/all-thunderbird.js`,
    date: '2026-08-22',
    clients: ['thunderbird'],
    decision: notInMarkup('behaviour at run time, not in markup: the markup and CSS of the email are unchanged by it'),
  },
  {
    id: 'thunderbird-simple-html',
    subject: "the Simple HTML view (used for junk mail) strips the email's styles",
    url: `${COMM_CENTRAL}/mailnews/mailnews.js`,
    date: '2026-08-22',
    clients: ['thunderbird'],
    decision: userSetting('depends on the view the reader chose (or the junk folder)'),
  },
];
