import { CANIEMAIL, CaniemailFeature } from './caniemail-data';
import { ClientSupport, FeatureSupportRow, getFeatureSupport } from './client-support';
import { CLIENT_IDS } from './email-client';
import { STANDARD_CSS_PROPERTIES } from './css-properties';

/**
 * How the engine recognizes each caniemail feature in an email. The support data itself is never
 * here: it is read from caniemail.json (clients/client-support.ts). This file only says what to look
 * for: a property name, a value, a function, a unit, an at-rule, a media feature, a selector, an
 * element or an attribute.
 */
export type FeatureKind =
  'property' | 'value' | 'function' | 'unit' | 'at-rule' | 'media-feature' | 'selector' | 'html-element' | 'html-attribute' | 'image-format' | 'markup';

export interface TrackedFeature {
  id: string;
  title: string;
  /** The `property` a finding names: `border-radius`, `display:flex`, `@media`, `:hover`, `<svg>`. */
  label: string;
  kind: FeatureKind;
  support: FeatureSupportRow;
  url?: string;
  lastTestDate?: string;
}

const FEATURES = new Map<string, TrackedFeature>();

function register(slug: string, kind: FeatureKind, label: string): void {
  const source = CANIEMAIL.data.find((f) => f.slug === slug);
  const support = getFeatureSupport(slug);
  if (!source || !support) return; // a slug dropped by a future caniemail release is simply not tracked
  FEATURES.set(slug, { id: slug, title: source.title, label, kind, support, url: source.url, lastTestDate: source.last_test_date });
}

/** Engine-own features without caniemail data: no mail client runs scripts or embeds frames. */
function registerUniversallyUnsupported(id: string, label: string): void {
  const notes: readonly string[] = [];
  const byClient: ClientSupport[] = CLIENT_IDS.map(() => ({ level: 'unsupported', notes }));
  FEATURES.set(id, { id, title: label, label, kind: 'html-element', support: { byClient, unsupportedMask: (1 << CLIENT_IDS.length) - 1, partialMask: 0 } });
}

// ---- CSS properties: every property a caniemail css feature names ----------------------------

/** property name -> feature ids (several when caniemail has overlapping features; worst wins). */
export const PROPERTY_FEATURES = new Map<string, string[]>();
const SPECIAL_CSS_SLUGS = new Set<string>();

function claim(property: string, slug: string): void {
  const list = PROPERTY_FEATURES.get(property) ?? [];
  if (!list.includes(slug)) list.push(slug);
  PROPERTY_FEATURES.set(property, list);
}

function titleProperties(feature: CaniemailFeature): string[] {
  // "max-height property", "font shorthand", "flex-direction:column", "block-size & inline-size".
  // Titles such as "border-radius logical properties" describe other properties: claim nothing.
  const names: string[] = [];
  for (const part of feature.title.split(/,|&| and /)) {
    const [beforeColon, afterColon] = part.trim().toLowerCase().split(':');
    const words = beforeColon.trim().split(/\s+/);
    const name = words[0] ?? '';
    // "flex-wrap: wrap" names a value of flex-wrap; the words after the colon are that value.
    const rest = afterColon === undefined ? words.slice(1).filter((w) => !['property', 'properties', 'shorthand', 'css'].includes(w)) : [];
    if (rest.length > 0 || !STANDARD_CSS_PROPERTIES.has(name)) return [];
    names.push(name);
  }
  return names;
}

// ---- the non-property CSS features, by slug ------------------------------------------------

export const VALUE_FEATURES = {
  display: {
    flex: 'css-display-flex',
    'inline-flex': 'css-display-flex',
    grid: 'css-display-grid',
    'inline-grid': 'css-display-grid',
    none: 'css-display-none',
  } as Record<string, string>,
  intrinsicSizes: ['fit-content', 'min-content', 'max-content'],
  systemFonts: ['system-ui', 'ui-serif', 'ui-sans-serif', 'ui-rounded', 'ui-monospace'],
};

export const FUNCTION_FEATURES: Record<string, string> = {
  calc: 'css-unit-calc',
  clamp: 'css-function-clamp',
  min: 'css-function-min',
  max: 'css-function-max',
  'light-dark': 'css-function-light-dark',
  'linear-gradient': 'css-linear-gradient',
  'repeating-linear-gradient': 'css-linear-gradient',
  'radial-gradient': 'css-radial-gradient',
  'repeating-radial-gradient': 'css-radial-gradient',
  'conic-gradient': 'css-conic-gradient',
  'repeating-conic-gradient': 'css-conic-gradient',
  rgb: 'css-rgb',
  rgba: 'css-rgba',
  lch: 'css-modern-color',
  oklch: 'css-modern-color',
  lab: 'css-modern-color',
  oklab: 'css-modern-color',
  var: 'css-variables',
};

export const UNIT_FEATURES: Record<string, string> = {};
for (const unit of ['ch', 'cm', 'em', 'ex', 'in', 'mm', 'pc', 'pt', 'px', 'rem', 'vh', 'vmax', 'vmin', 'vw']) UNIT_FEATURES[unit] = `css-unit-${unit}`;
UNIT_FEATURES['%'] = 'css-unit-percent';

export const AT_RULE_FEATURES: Record<string, string> = {
  'font-face': 'css-at-font-face',
  import: 'css-at-import',
  keyframes: 'css-at-keyframes',
  '-webkit-keyframes': 'css-at-keyframes',
  media: 'css-at-media',
  supports: 'css-at-supports',
};

export const MEDIA_FEATURE_FEATURES: Record<string, string> = {
  '-webkit-device-pixel-ratio': 'css-at-media-device-pixel-ratio',
  '-webkit-min-device-pixel-ratio': 'css-at-media-device-pixel-ratio',
  '-webkit-max-device-pixel-ratio': 'css-at-media-device-pixel-ratio',
  'min-device-pixel-ratio': 'css-at-media-device-pixel-ratio',
  'max-device-pixel-ratio': 'css-at-media-device-pixel-ratio',
  hover: 'css-at-media-hover',
  'any-hover': 'css-at-media-hover',
  orientation: 'css-at-media-orientation',
  'prefers-color-scheme': 'css-at-media-prefers-color-scheme',
  'prefers-reduced-motion': 'css-at-media-prefers-reduced-motion',
};

/** `:hover` -> slug, `::before` -> slug (legacy single-colon pseudo-elements are mapped too). */
export const PSEUDO_FEATURES: Record<string, string> = {};

export const SELECTOR_FEATURES = {
  class: 'css-selector-class',
  id: 'css-selector-id',
  type: 'css-selector-type',
  universal: 'css-selector-universal',
  attribute: 'css-selector-attribute',
  descendant: 'css-selector-descendant',
  child: 'css-selector-child',
  adjacentSibling: 'css-selector-adjacent-sibling',
  generalSibling: 'css-selector-general-sibling',
  grouping: 'css-selector-grouping',
  chaining: 'css-selector-chaining',
} as const;

export const MISC_CSS_FEATURES = {
  important: 'css-important',
  comments: 'css-comments',
  nesting: 'css-nesting',
  variables: 'css-variables',
  initial: 'css-unit-initial',
  intrinsicSize: 'css-intrinsic-size',
  systemUi: 'css-sytem-ui',
} as const;

// ---- HTML ----------------------------------------------------------------------------------

export const ELEMENT_FEATURES: Record<string, string> = {
  abbr: 'html-abbr',
  acronym: 'html-acronym',
  address: 'html-address',
  audio: 'html-audio',
  base: 'html-base',
  bdi: 'html-bdi',
  blockquote: 'html-blockquote',
  body: 'html-body',
  code: 'html-code',
  del: 'html-del',
  dfn: 'html-dfn',
  dialog: 'html-dialog',
  div: 'html-div',
  form: 'html-form',
  hr: 'html-hr',
  img: 'html-img',
  marquee: 'html-marquee',
  meter: 'html-meter',
  object: 'html-object',
  p: 'html-p',
  picture: 'html-picture',
  pre: 'html-pre',
  progress: 'html-progress',
  rp: 'html-rp',
  rt: 'html-rt',
  ruby: 'html-ruby',
  select: 'html-select',
  small: 'html-small',
  span: 'html-span',
  strike: 'html-strike',
  strong: 'html-strong',
  style: 'html-style',
  svg: 'html-svg',
  table: 'html-table',
  textarea: 'html-textarea',
  video: 'html-video',
  wbr: 'html-wbr',
  map: 'html-image-maps',
  area: 'html-image-maps',
  script: 'html-script',
  iframe: 'html-iframe',
};
for (const tag of ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']) ELEMENT_FEATURES[tag] = 'html-h1-h6';
for (const tag of ['ul', 'ol', 'dl']) ELEMENT_FEATURES[tag] = 'html-lists';
for (const tag of ['article', 'aside', 'details', 'figcaption', 'figure', 'footer', 'header', 'main', 'mark', 'nav', 'section', 'summary', 'time']) {
  ELEMENT_FEATURES[tag] = 'html-semantics';
}

export const INPUT_TYPE_FEATURES: Record<string, string> = {
  checkbox: 'html-input-checkbox',
  hidden: 'html-input-hidden',
  radio: 'html-input-radio',
  reset: 'html-input-reset',
  submit: 'html-input-submit',
  text: 'html-input-text',
};
export const BUTTON_TYPE_FEATURES: Record<string, string> = { reset: 'html-button-reset', submit: 'html-button-submit' };

export const ATTRIBUTE_FEATURES: Record<string, string> = {
  align: 'html-align',
  background: 'html-background',
  cellpadding: 'html-cellpadding',
  cellspacing: 'html-cellspacing',
  dir: 'html-dir',
  height: 'html-height',
  hidden: 'html-hidden',
  lang: 'html-lang',
  loading: 'html-loading-attribute',
  popover: 'html-popover',
  required: 'html-required',
  role: 'html-role',
  srcset: 'html-srcset',
  sizes: 'html-srcset',
  target: 'html-target',
  valign: 'html-valign',
  width: 'html-width',
  'aria-describedby': 'html-aria-describedby',
  'aria-hidden': 'html-aria-hidden',
  'aria-label': 'html-aria-label',
  'aria-labelledby': 'html-aria-labelledby',
  'aria-live': 'html-aria-live',
  inert: 'css-inert-attribute',
  usemap: 'html-image-maps',
};

export const MARKUP_FEATURES = {
  anchorLinks: 'html-anchor-links',
  mailtoLinks: 'html-mailto-links',
  comments: 'html-comments',
  doctype: 'html-doctype',
  metaColorScheme: 'html-meta-color-scheme',
  linkStylesheet: 'html-link',
} as const;

/** File extension (or data-URI subtype) of an `<img src>` -> image format feature. */
export const IMAGE_FORMAT_FEATURES: Record<string, string> = {
  apng: 'image-apng',
  avif: 'image-avif',
  bmp: 'image-bmp',
  gif: 'image-gif',
  hdr: 'image-hdr',
  heif: 'image-heif',
  heic: 'image-heif',
  ico: 'image-ico',
  jpg: 'image-jpg',
  jpeg: 'image-jpg',
  mp4: 'image-mp4',
  png: 'image-png',
  svg: 'image-svg',
  'svg+xml': 'image-svg',
  tif: 'image-tiff',
  tiff: 'image-tiff',
  webp: 'image-webp',
};
export const BASE64_IMAGE_FEATURE = 'image-base64';

// ---- build the tables ----------------------------------------------------------------------

/** Order matters: each property pass builds on the previous one's claims, and registering a feature again replaces its label. */
function buildCatalog(): void {
  collectSpecialCssSlugs();
  const cssFeatures = CANIEMAIL.data.filter((f) => f.category === 'css' && !SPECIAL_CSS_SLUGS.has(f.slug));
  const titled = claimTitledProperties(cssFeatures);
  claimKeywordProperties(cssFeatures, titled);
  inheritShorthandFeatures();

  for (const [property, slugs] of PROPERTY_FEATURES) for (const slug of slugs) if (!FEATURES.has(slug)) register(slug, 'property', property);
  // Property features are labeled with the property found in the email, see `labelFor`.

  registerCssValueFeatures();
  registerSelectorFeatures();
  registerHtmlFeatures();
  registerImageFormatFeatures();
}

/** CSS features recognized by something other than a property name: they claim no property. */
function collectSpecialCssSlugs(): void {
  for (const slug of Object.values(VALUE_FEATURES.display)) SPECIAL_CSS_SLUGS.add(slug);
  for (const slug of [
    ...Object.values(FUNCTION_FEATURES),
    ...Object.values(UNIT_FEATURES),
    ...Object.values(AT_RULE_FEATURES),
    ...Object.values(MEDIA_FEATURE_FEATURES),
    ...Object.values(SELECTOR_FEATURES),
    ...Object.values(MISC_CSS_FEATURES),
    'css-inert-attribute',
  ]) {
    SPECIAL_CSS_SLUGS.add(slug);
  }
  for (const feature of CANIEMAIL.data) {
    if (feature.slug.startsWith('css-pseudo-')) SPECIAL_CSS_SLUGS.add(feature.slug);
  }
}

/** Pass 1: properties a feature's title names directly. Answers each feature's titled properties. */
function claimTitledProperties(cssFeatures: readonly CaniemailFeature[]): Map<string, string[]> {
  const titled = new Map<string, string[]>();
  for (const feature of cssFeatures) {
    const names = titleProperties(feature);
    titled.set(feature.slug, names);
    for (const name of names) claim(name, feature.slug);
  }
  return titled;
}

/** Pass 2: hyphenated keywords that are real properties nobody's title claimed (border-top-color...). */
function claimKeywordProperties(cssFeatures: readonly CaniemailFeature[], titled: ReadonlyMap<string, string[]>): void {
  for (const feature of cssFeatures) {
    const names = titled.get(feature.slug) ?? [];
    const stems = names.map((n) => n.split('-')[0]);
    for (const raw of (feature.keywords ?? '').split(',')) {
      const keyword = raw.trim().toLowerCase();
      if (!keyword.includes('-') || !STANDARD_CSS_PROPERTIES.has(keyword) || PROPERTY_FEATURES.has(keyword)) continue;
      if (names.length > 0 && !stems.includes(keyword.split('-')[0])) continue;
      claim(keyword, feature.slug);
    }
    // A title that is a property family rather than a property (scroll-snap): claim its members.
    if (names.length === 0) {
      const stem = feature.title.trim().split(/\s+/)[0].toLowerCase();
      for (const property of STANDARD_CSS_PROPERTIES) if (property.startsWith(`${stem}-`) && !PROPERTY_FEATURES.has(property)) claim(property, feature.slug);
    }
  }
}

/** Pass 3: physical longhands inherit their shorthand's feature (padding-left -> padding). */
function inheritShorthandFeatures(): void {
  for (const property of STANDARD_CSS_PROPERTIES) {
    if (PROPERTY_FEATURES.has(property)) continue;
    const corner = /^border-(top|bottom)-(left|right)-radius$/.test(property);
    const shorthand = corner ? 'border-radius' : property.replace(/-(top|right|bottom|left)$/, '');
    if (shorthand !== property && PROPERTY_FEATURES.has(shorthand)) PROPERTY_FEATURES.set(property, [...(PROPERTY_FEATURES.get(shorthand) ?? [])]);
  }
}

/** Values, functions, units, misc CSS features, at-rules and media features. */
function registerCssValueFeatures(): void {
  register('css-display-flex', 'value', 'display:flex');
  register('css-display-grid', 'value', 'display:grid');
  register('css-display-none', 'value', 'display:none');
  for (const [name, slug] of Object.entries(FUNCTION_FEATURES)) {
    if (slug === 'css-variables') continue;
    if (!FEATURES.has(slug)) register(slug, 'function', slug === 'css-modern-color' ? 'lch()/oklch()/lab()/oklab()' : `${name}()`);
  }
  register('css-variables', 'function', 'var()');
  for (const [unit, slug] of Object.entries(UNIT_FEATURES)) register(slug, 'unit', `${unit} unit`);
  register(MISC_CSS_FEATURES.initial, 'value', 'initial');
  register(MISC_CSS_FEATURES.intrinsicSize, 'value', 'fit-content/min-content/max-content');
  register(MISC_CSS_FEATURES.systemUi, 'value', 'system-ui fonts');
  register(MISC_CSS_FEATURES.important, 'value', '!important');
  register(MISC_CSS_FEATURES.comments, 'at-rule', 'CSS comments');
  register(MISC_CSS_FEATURES.nesting, 'selector', 'CSS nesting');
  for (const [name, slug] of Object.entries(AT_RULE_FEATURES)) if (!FEATURES.has(slug)) register(slug, 'at-rule', `@${name}`);
  for (const [name, slug] of Object.entries(MEDIA_FEATURE_FEATURES)) if (!FEATURES.has(slug)) register(slug, 'media-feature', `@media (${name})`);
}

const SELECTOR_LABELS: Record<keyof typeof SELECTOR_FEATURES, string> = {
  class: 'class selector',
  id: 'id selector',
  type: 'type selector',
  universal: 'universal selector *',
  attribute: 'attribute selector',
  descendant: 'descendant combinator',
  child: 'child combinator >',
  adjacentSibling: 'adjacent sibling combinator +',
  generalSibling: 'general sibling combinator ~',
  grouping: 'selector grouping',
  chaining: 'chained selectors',
};

/** Selectors and combinators, then every caniemail pseudo-class and pseudo-element (filling PSEUDO_FEATURES). */
function registerSelectorFeatures(): void {
  for (const [key, slug] of Object.entries(SELECTOR_FEATURES)) register(slug, 'selector', SELECTOR_LABELS[key as keyof typeof SELECTOR_FEATURES]);
  for (const feature of CANIEMAIL.data) {
    const pseudoClass = /^css-pseudo-class-(.+)$/.exec(feature.slug);
    const pseudoElement = /^css-pseudo-element-(.+)$/.exec(feature.slug);
    if (pseudoClass) {
      PSEUDO_FEATURES[`:${pseudoClass[1]}`] = feature.slug;
      register(feature.slug, 'selector', `:${pseudoClass[1]}`);
    } else if (pseudoElement) {
      PSEUDO_FEATURES[`::${pseudoElement[1]}`] = feature.slug;
      // CSS2 spelled these with one colon, and emails still do.
      if (['after', 'before', 'first-letter', 'first-line'].includes(pseudoElement[1])) PSEUDO_FEATURES[`:${pseudoElement[1]}`] = feature.slug;
      register(feature.slug, 'selector', `::${pseudoElement[1]}`);
    }
  }
}

/** Elements, input and button types, attributes and markup. */
function registerHtmlFeatures(): void {
  for (const [tag, slug] of Object.entries(ELEMENT_FEATURES)) {
    if (slug === 'html-script' || slug === 'html-iframe' || FEATURES.has(slug)) continue;
    const grouped = ['html-h1-h6', 'html-lists', 'html-semantics', 'html-image-maps'].includes(slug);
    register(slug, 'html-element', grouped ? (CANIEMAIL.data.find((f) => f.slug === slug)?.title ?? slug) : `<${tag}>`);
  }
  registerUniversallyUnsupported('html-script', '<script>');
  registerUniversallyUnsupported('html-iframe', '<iframe>');
  for (const [type, slug] of Object.entries(INPUT_TYPE_FEATURES)) register(slug, 'html-element', `<input type="${type}">`);
  for (const [type, slug] of Object.entries(BUTTON_TYPE_FEATURES)) register(slug, 'html-element', `<button type="${type}">`);
  for (const [name, slug] of Object.entries(ATTRIBUTE_FEATURES)) {
    if (FEATURES.has(slug)) continue;
    register(slug, 'html-attribute', slug === 'html-srcset' ? 'srcset/sizes attributes' : `${name} attribute`);
  }
  register(MARKUP_FEATURES.anchorLinks, 'markup', 'local #anchor links');
  register(MARKUP_FEATURES.mailtoLinks, 'markup', 'mailto: links');
  register(MARKUP_FEATURES.comments, 'markup', 'HTML comments');
  register(MARKUP_FEATURES.doctype, 'markup', '<!DOCTYPE html>');
  register(MARKUP_FEATURES.metaColorScheme, 'markup', '<meta name="color-scheme">');
  register(MARKUP_FEATURES.linkStylesheet, 'html-element', '<link rel="stylesheet">');
}

function registerImageFormatFeatures(): void {
  for (const slug of new Set(Object.values(IMAGE_FORMAT_FEATURES))) {
    const title = CANIEMAIL.data.find((f) => f.slug === slug)?.title ?? slug;
    register(slug, 'image-format', title.replace(/ image format$/i, ' images'));
  }
  register(BASE64_IMAGE_FEATURE, 'image-format', 'base64 (data URI) images');
}

buildCatalog();

export function getTrackedFeature(id: string): TrackedFeature | undefined {
  return FEATURES.get(id);
}

export function listTrackedFeatures(): TrackedFeature[] {
  return [...FEATURES.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
