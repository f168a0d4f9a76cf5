import { bodyToDiv } from './body-to-div';
import type { ClientModel, DarkBehavior, RewriteBehavior, SanitizeBehavior } from './client-behavior';
import { mediaFeatures } from './css-text';

/**
 * Proton Mail on the web: its sanitizer (open source, ProtonMail/WebClients) keeps `<style>` blocks as
 * written, inside a sandboxed frame, and rewrites the values that could escape the frame or fight its
 * height: positions, viewport heights, percentage heights, remote URLs, color schemes.
 */
const WEBCLIENTS = 'https://github.com/ProtonMail/WebClients';
const ESCAPE = {
  url: `${WEBCLIENTS}/blob/main/packages/shared/lib/sanitize/escape.ts`,
  title: 'Proton WebClients: sanitize/escape.ts (forbidden styles, url() escaping)',
  date: '2026',
};
const PURIFY = {
  url: `${WEBCLIENTS}/blob/main/packages/shared/lib/sanitize/purify.ts`,
  title: 'Proton WebClients: sanitize/purify.ts (the DOMPurify configuration)',
  date: '2026',
};
const STYLESHEET = {
  url: `${WEBCLIENTS}/blob/main/packages/mail-renderer/src/helpers/transforms/transformStylesheet.ts`,
  title: 'Proton WebClients: transformStylesheet.ts (<style> rewrites)',
  date: '2026',
};
const STYLE_ATTRIBUTES = {
  url: `${WEBCLIENTS}/blob/main/packages/mail-renderer/helpers/transforms/transformStyleAttributes.ts`,
  title: 'Proton WebClients: transformStyleAttributes.ts (style attribute rewrites)',
  date: '2026',
};

/** The selector features caniemail marks unsupported for Proton: the sanitizer keeps every `<style>` rule as written. */
const SELECTORS_KEPT = [
  'css-selector-class',
  'css-selector-id',
  'css-selector-type',
  'css-selector-descendant',
  'css-selector-child',
  'css-selector-attribute',
  'css-selector-universal',
  'css-selector-grouping',
  'css-selector-adjacent-sibling',
  'css-selector-general-sibling',
  'css-selector-chaining',
] as const;

const styleKept: SanitizeBehavior = {
  id: 'proton-style-kept',
  kind: 'sanitize',
  severity: 'info',
  summary:
    'Proton Mail keeps <style> blocks, in <head> or <body>, with their selectors as written (the message renders in its own sandboxed frame, so nothing is prefixed).',
  evidence: [
    PURIFY,
    {
      url: `${WEBCLIENTS}/blob/main/packages/mail-renderer/src/helpers/getIframeHtml.ts`,
      title: 'Proton WebClients: getIframeHtml.ts (head styles copied into the frame)',
      date: '2026',
    },
  ],
  supportOverrides: Object.fromEntries(SELECTORS_KEPT.map((slug) => [slug, 'supported'])),
  suggestion: '',
  fixture: {
    html: '<html><head><style>.x{color:#ff0000} p > span{font-weight:bold}</style></head><body><p class="x"><span>Hi</span></p></body></html>',
    expect: { transformIncludes: ['.x{color:#ff0000} p > span{font-weight:bold}', 'class="x"'] },
  },
};

const formControls: SanitizeBehavior = {
  id: 'proton-media-and-forms-removed',
  kind: 'sanitize',
  severity: 'warning',
  removesElements: new Set(['video', 'audio', 'object', 'embed', 'svg', 'input', 'select', 'textarea', 'button']),
  unwrapsElements: new Set(['form']),
  summary:
    'Proton Mail removes form controls (<input>, <select>, <textarea>, <button>), <video>, <audio>, <object>, <embed> and inline <svg>, and removes <form> keeping its text.',
  evidence: [
    PURIFY,
    {
      url: `${WEBCLIENTS}/blob/main/packages/mail-renderer/helpers/transforms/transformEscape.test.ts`,
      title: 'Proton WebClients: transformEscape tests (SVG removed)',
      date: '2026',
    },
    {
      url: 'https://www.caniemail.com/features/html-input-checkbox/',
      title: 'caniemail: form controls (Proton: not supported)',
      date: '2020-03',
      note: "The sanitizer's forbidden tags have changed over time (input was forbidden, a later version keeps inputs with their attributes stripped and disabled); the controls are modeled as removed, as caniemail also found.",
    },
  ],
  suggestion: 'Link to the video or form on the web instead, with an image as the teaser.',
  fixture: {
    html: '<form action="https://example.com"><p>Search</p><input name="q"><button>Go</button></form><video src="https://example.com/v.mp4"></video>',
    expect: { transformIncludes: ['<p>Search</p>'], transformExcludes: ['<video', '<form', '<input', '<button'], finding: { rule: 'html-video' } },
  },
};

const commentsRemoved: SanitizeBehavior = {
  id: 'proton-comments-removed',
  kind: 'sanitize',
  severity: 'info',
  supportOverrides: { 'html-comments': 'unsupported' },
  summary:
    'Proton Mail deletes every HTML comment before sanitizing, so <!--[if mso]> blocks disappear with their content and <!--[if !mso]><!--> content stays.',
  evidence: [
    {
      url: `${WEBCLIENTS}/blob/main/packages/mail-renderer/helpers/transforms/transformEscape.ts`,
      title: 'Proton WebClients: transformEscape.ts (HTML comments removed first)',
      date: '2026',
    },
  ],
  suggestion: '',
  fixture: {
    html: '<!--[if mso]><table><tr><td>MSO</td></tr></table><![endif]--><div>Web</div>',
    expect: { transformExcludes: ['MSO', '<!--'], transformIncludes: ['<div>Web</div>'] },
  },
};

const absoluteToRelative: RewriteBehavior = {
  id: 'proton-position-rewrite',
  kind: 'rewrite',
  severity: 'warning',
  label: 'position rewritten',
  summary: 'Proton Mail turns position:absolute into relative, and position:fixed or sticky into inherit, in style attributes and <style> blocks.',
  evidence: [ESCAPE, STYLESHEET, STYLE_ATTRIBUTES],
  properties: ['position'],
  rewrite: (d, site) => {
    if (d.property !== 'position') return undefined;
    const value = d.value.trim().toLowerCase();
    if (value === 'absolute') return { ...d, value: 'relative' };
    if (value === 'fixed' || (value === 'sticky' && !site.inline)) return { property: 'position', value: 'inherit', important: !site.inline };
    return undefined;
  },
  suggestion: 'Do not rely on positioning for layout or for hiding content: Proton Mail reflows it.',
  fixture: {
    html: '<html><head><style>.bar{position:fixed;bottom:0}</style></head><body><div style="position:absolute;top:0">X</div><div class="bar">Y</div></body></html>',
    expect: { transformIncludes: ['position: relative', 'position:inherit !important'], finding: { rule: 'proton-position-rewrite' } },
  },
};

const offsetsUnset: RewriteBehavior = {
  id: 'proton-inline-offsets-unset',
  kind: 'rewrite',
  severity: 'warning',
  label: 'left / right / top',
  summary: 'Proton Mail sets inline left, right and top (and the inset-* properties) to unset, so content hidden off-screen shows.',
  evidence: [STYLE_ATTRIBUTES],
  properties: ['left', 'right', 'top', 'inset-inline-start', 'inset-inline-end', 'inset-block-start', 'inset-block-end'],
  rewrite: (d, site) => (site.inline && /^(left|right|top|inset-(inline|block)-(start|end))$/.test(d.property) ? { ...d, value: 'unset' } : undefined),
  suggestion: 'Hide preheaders with display:none plus max-height:0 and overflow:hidden, not with off-screen positions.',
  fixture: {
    html: '<span style="position:absolute;left:-9999px">preheader</span>',
    expect: { transformIncludes: ['left: unset'], finding: { rule: 'proton-inline-offsets-unset' } },
  },
};

const heightsUnset: RewriteBehavior = {
  id: 'proton-height-rewrite',
  kind: 'rewrite',
  severity: 'warning',
  label: 'percentage or viewport height',
  summary: 'Proton Mail sets percentage height and min-height to unset, inline heights in vh and min-height:100vh to auto.',
  evidence: [ESCAPE, STYLESHEET, STYLE_ATTRIBUTES],
  properties: ['height', 'min-height'],
  rewrite: (d, site) => {
    const value = d.value.trim().toLowerCase();
    if ((d.property === 'height' || d.property === 'min-height') && /^[\d.,]+%/.test(value)) return { ...d, value: 'unset' };
    if (d.property === 'min-height' && value === '100vh') return { ...d, value: 'auto' };
    if (site.inline && d.property === 'height' && value.includes('vh')) return { ...d, value: 'auto' };
    return undefined;
  },
  suggestion: 'Size with fixed lengths; full-height layouts do not survive in Proton Mail.',
  fixture: {
    html: '<table style="height:100%;line-height:120%"><tr><td style="height:100vh">x</td></tr></table>',
    expect: { transformIncludes: ['height: unset', 'line-height: 120%', 'height: auto'], finding: { rule: 'proton-height-rewrite' } },
  },
};

const negativeMargins: RewriteBehavior = {
  id: 'proton-negative-margins-unset',
  kind: 'rewrite',
  severity: 'warning',
  label: 'negative margin',
  summary: 'Proton Mail sets inline negative margins to unset.',
  evidence: [STYLE_ATTRIBUTES],
  properties: ['margin-top', 'margin-right', 'margin-bottom', 'margin-left'],
  rewrite: (d, site) => (site.inline && /^margin-(top|right|bottom|left)$/.test(d.property) && /^\s*-\d/.test(d.value) ? { ...d, value: 'unset' } : undefined),
  suggestion: 'Lay the email out with tables and padding instead of negative margins.',
  fixture: {
    html: '<div style="margin-top:-20px">A</div>',
    expect: { transformIncludes: ['margin-top: unset'], finding: { rule: 'proton-negative-margins-unset' } },
  },
};

const urlsNeutralised: RewriteBehavior = {
  id: 'proton-style-urls-blocked',
  kind: 'rewrite',
  severity: 'warning',
  label: 'url() in <style>',
  summary:
    'Proton Mail rewrites url() in <style> blocks to proton-url(), which never loads: background images, web fonts and imports from <style> do not show.',
  evidence: [
    ESCAPE,
    {
      url: 'https://www.caniemail.com/features/css-list-style-image/',
      title: 'caniemail: list-style-image (Proton: url() becomes proton-url())',
      date: '2021',
    },
  ],
  valueMatches: /\b(url|image-set)\s*\(/i,
  rewrite: (d, site) =>
    !site.inline && /\b(url|image-set)\s*\(/i.test(d.value) ? { ...d, value: d.value.replace(/\b(url|image-set)\s*\(/gi, 'proton-$1(') } : undefined,
  suggestion: 'Put background images inline (style attribute or background attribute), with a background color fallback.',
  fixture: {
    html: '<html><head><style>.h{background-image:url(https://example.com/b.jpg);background-color:#003366}</style></head><body><div class="h">x</div></body></html>',
    expect: { transformIncludes: ['proton-url(https://example.com/b.jpg)'], finding: { rule: 'proton-style-urls-blocked' } },
  },
};

const colorSchemeDisabled: RewriteBehavior = {
  id: 'proton-color-scheme-disabled',
  kind: 'rewrite',
  severity: 'info',
  label: 'color-scheme renamed',
  summary: 'Proton Mail renames every color-scheme in CSS to proton-disabled-Color-scheme: dark-mode queries never match and the email is always shown light.',
  evidence: [ESCAPE],
  properties: ['color-scheme'],
  rewrite: (d) => (d.property === 'color-scheme' ? { ...d, property: 'proton-disabled-Color-scheme' } : undefined),
  rewriteAtRule: (name, params) =>
    name === 'media' && /color-scheme/i.test(params) ? params.replace(/color-scheme/gi, 'proton-disabled-Color-scheme') : undefined,
  suggestion: 'Proton Mail shows the light version: make sure it reads well.',
  fixture: {
    html: '<html><head><style>@media (prefers-color-scheme: dark){.b{background:#000000 !important}}</style></head><body><div class="b">x</div></body></html>',
    expect: { transformIncludes: ['prefers-proton-disabled-Color-scheme'], finding: { rule: 'proton-color-scheme-disabled' } },
  },
};

const heightQueriesRemoved: RewriteBehavior = {
  id: 'proton-height-media-queries-removed',
  kind: 'rewrite',
  severity: 'warning',
  label: '@media on height',
  summary: 'Proton Mail deletes top-level @media rules that test a height.',
  evidence: [STYLESHEET],
  rewriteAtRule: (name, params, nested) =>
    !nested && name === 'media' && mediaFeatures(params).some((feature) => feature.includes('height')) ? null : undefined,
  suggestion: 'Use width-based media queries only.',
  fixture: {
    html: '<html><head><style>.a{color:#ff0000}@media (max-height:500px){.a{color:#0000ff}}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformIncludes: ['.a{color:#ff0000;}'], transformExcludes: ['max-height'], finding: { rule: 'proton-height-media-queries-removed' } },
  },
};

const bodyAttributes = bodyToDiv('proton-body-to-div', 'Proton Mail', [
  {
    url: `${WEBCLIENTS}/blob/main/packages/mail-renderer/src/helpers/getIframeHtml.ts`,
    title: "Proton WebClients: getIframeHtml.ts (only the body's style and class move to a wrapper)",
    date: '2026',
  },
]);

const protonDark: DarkBehavior = {
  id: 'proton-dark-none',
  kind: 'dark',
  model: 'none',
  summary: "Proton Mail shows HTML email as written on a light background, whatever its theme; the email's dark rules are disabled.",
  evidence: [
    ESCAPE,
    {
      url: `${WEBCLIENTS}/blob/main/applications/mail/src/app/components/message/hooks/useMessageDarkStyles.ts`,
      title: 'Proton WebClients: useMessageDarkStyles (behind a feature flag)',
      date: '2026',
      note: 'A flagged variant darkens only the outer canvas of plain emails; its rollout is unknown.',
    },
  ],
  // The email's dark rules must not reach the dark view (an untouched email's would).
  fixture: {
    html: '<html><head><style>.a{color:#000000}@media (prefers-color-scheme:dark){.a{color:#ffffff}}</style></head><body style="background-color:#ffffff"><p class="a">x</p></body></html>',
    expect: { darkIncludes: ['background-color:#ffffff'], darkExcludes: ['prefers-color-scheme:dark'] },
  },
};

export const PROTON_MODEL: ClientModel = {
  client: 'protonmail',
  engine: 'Blink',
  checkedAt: '2026-11-27',
  behaviors: [
    styleKept,
    formControls,
    commentsRemoved,
    absoluteToRelative,
    offsetsUnset,
    heightsUnset,
    negativeMargins,
    urlsNeutralised,
    colorSchemeDisabled,
    heightQueriesRemoved,
    bodyAttributes,
    protonDark,
  ],
};
