import type { AdditionBehavior, ClientModel, DarkBehavior, RewriteBehavior, SanitizeBehavior } from './client-behavior';
import { isDarkSchemeQuery } from './css-text';

/** Samsung Email, Fastmail, HEY and Superhuman. */
const CANIEMAIL_DARK_QUERY = {
  url: 'https://www.caniemail.com/features/css-at-media-prefers-color-scheme/',
  title: 'caniemail: prefers-color-scheme',
  date: '2023-03-08',
};
const LIGHT_BODY =
  '<body><table><tr><td style="background-color:#ffffff;color:#000000">x</td><td style="background-color:#111111;color:#eeeeee">y</td></tr></table></body>';

const samsungDark: DarkBehavior = {
  id: 'samsung-dark',
  kind: 'dark',
  model: 'partial-inversion-unless-dark-query',
  summary: "Samsung Email applies the email's prefers-color-scheme dark rules when it has them; otherwise it darkens light backgrounds and lightens dark text.",
  evidence: [
    CANIEMAIL_DARK_QUERY,
    {
      url: 'https://www.caniemail.com/features/css-color-scheme/',
      title: 'caniemail: color-scheme (Samsung 6.1: supported)',
      date: '2023-09-18',
      note: 'The inversion without dark rules comes from secondary guides only: disputed.',
    },
  ],
  fixture: { html: LIGHT_BODY, expect: { darkExcludes: ['background-color:#ffffff'], darkIncludes: ['style="background-color:#111111;color:#eeeeee"'] } },
};

const fastmailDarkQuery: RewriteBehavior = {
  id: 'fastmail-dark-query-rewrite',
  kind: 'rewrite',
  severity: 'info',
  label: 'prefers-color-scheme rewritten',
  summary:
    "Fastmail rewrites a prefers-color-scheme: dark query to @media none in its light theme (and to @media all in its dark theme, where the email's dark rules then apply).",
  evidence: [
    CANIEMAIL_DARK_QUERY,
    { url: 'https://www.caniemail.com/features/css-at-supports/', title: 'caniemail: @supports (Fastmail note)', date: '2021-07' },
  ],
  rewriteAtRule: (name, params) => (name === 'media' && isDarkSchemeQuery(params) ? 'none' : undefined),
  suggestion: '',
  fixture: {
    html: '<html><head><style>@media (prefers-color-scheme:dark){.c{background:#000000}}</style></head><body><div class="c">x</div></body></html>',
    expect: { transformIncludes: ['@media none{'], darkIncludes: ['.c{background:#000000;}'] },
  },
};

const fastmailPositionFixed: RewriteBehavior = {
  id: 'fastmail-position-fixed',
  kind: 'rewrite',
  severity: 'warning',
  label: 'position:fixed',
  summary: 'Fastmail rewrites position:fixed to position:absolute.',
  evidence: [{ url: 'https://www.caniemail.com/features/css-position/', title: 'caniemail: position (Fastmail note 6)', date: '2021-07' }],
  properties: ['position'],
  rewrite: (d) => (d.property === 'position' && d.value.trim().toLowerCase() === 'fixed' ? { ...d, value: 'absolute' } : undefined),
  suggestion: 'Do not rely on fixed positioning in email.',
  fixture: {
    html: '<div style="position:fixed;bottom:0">x</div>',
    expect: { transformIncludes: ['position: absolute'], finding: { rule: 'fastmail-position-fixed' } },
  },
};

const fastmailCustomProperties: RewriteBehavior = {
  id: 'fastmail-custom-properties-removed',
  kind: 'rewrite',
  severity: 'warning',
  label: 'custom property',
  summary: 'Fastmail removes custom property declarations (--name: value); var() then falls back.',
  evidence: [{ url: 'https://www.caniemail.com/features/css-variables/', title: 'caniemail: CSS variables (Fastmail note 1)', date: '2021-07' }],
  properties: ['--*'],
  rewrite: (d) => (d.property.startsWith('--') ? null : undefined),
  suggestion: 'Resolve custom properties to static values before sending.',
  fixture: {
    html: '<html><head><style>.a{--brand:#ff0000;color:var(--brand,#0000ff)}</style></head><body><p class="a">x</p></body></html>',
    expect: { transformExcludes: ['--brand:#ff0000'], finding: { rule: 'fastmail-custom-properties-removed' } },
  },
};

const fastmailMedia: SanitizeBehavior = {
  id: 'fastmail-media-removed',
  kind: 'sanitize',
  severity: 'warning',
  removesElements: new Set(['video', 'audio', 'object']),
  summary: 'Fastmail removes <video>, <audio> and <object> with all their content, fallbacks included.',
  evidence: [
    { url: 'https://www.caniemail.com/features/html-video/', title: 'caniemail: <video> (Fastmail note 9)', date: '2021-07' },
    { url: 'https://www.caniemail.com/features/html-audio/', title: 'caniemail: <audio> (Fastmail note 5)', date: '2021-07' },
  ],
  suggestion: 'Link to the video with a poster image instead.',
  fixture: {
    html: '<video src="https://example.com/a.mp4"><img src="https://example.com/fallback.jpg" alt="Watch"></video>',
    expect: { transformExcludes: ['<video', 'fallback.jpg'], finding: { rule: 'html-video' } },
  },
};

const fastmailDark: DarkBehavior = {
  id: 'fastmail-dark-query',
  kind: 'dark',
  model: 'prefers-color-scheme',
  summary: "Fastmail's dark theme applies the email's prefers-color-scheme: dark rules (rewritten to @media all); an email without them keeps its colors.",
  evidence: [
    CANIEMAIL_DARK_QUERY,
    {
      url: 'https://github.com/bulwarkmail/webmail/issues/693',
      title: 'bulwarkmail #693 (Fastmail dark theme compared)',
      date: '2026-07-26',
      note: 'Recoloring of emails without dark rules is reported anecdotally only: not modeled.',
    },
  ],
  fixture: {
    html: '<html><head><style>@media (prefers-color-scheme:dark){.c{background:#000000}}</style></head><body><div class="c">x</div></body></html>',
    expect: { darkIncludes: ['.c{background:#000000;}'] },
  },
};

const heyDarkQuery: RewriteBehavior = {
  id: 'hey-dark-query-disabled',
  kind: 'rewrite',
  severity: 'info',
  label: 'prefers-color-scheme rewritten',
  summary: "HEY rewrites a prefers-color-scheme query to @media (false), so the email's dark rules never apply.",
  evidence: [
    CANIEMAIL_DARK_QUERY,
    { url: 'https://www.caniemail.com/features/css-function-light-dark/', title: 'caniemail: light-dark() (HEY: always the light color)', date: '2024-08-14' },
  ],
  rewriteAtRule: (name, params) => (name === 'media' && /prefers-color-scheme/i.test(params) ? '(false)' : undefined),
  suggestion: 'HEY ignores dark rules: make sure the light version reads well on its dark interface.',
  fixture: {
    html: '<html><head><style>@media (prefers-color-scheme:dark){.c{color:#ffffff}}</style></head><body><p class="c">x</p></body></html>',
    expect: { transformIncludes: ['@media (false){'], finding: { rule: 'hey-dark-query-disabled' } },
  },
};

const heyWordBreak: RewriteBehavior = {
  id: 'hey-word-break',
  kind: 'rewrite',
  severity: 'info',
  label: 'word-break rewritten',
  summary: 'HEY replaces every word-break value with break-word.',
  evidence: [{ url: 'https://www.caniemail.com/features/css-word-break/', title: 'caniemail: word-break (HEY note 4)', date: '2022-02-15' }],
  properties: ['word-break'],
  rewrite: (d) => (d.property === 'word-break' && d.value.trim().toLowerCase() !== 'break-word' ? { ...d, value: 'break-word' } : undefined),
  suggestion: '',
  fixture: { html: '<p style="word-break:break-all">x</p>', expect: { transformIncludes: ['word-break: break-word'] } },
};

const heyLazyImages: AdditionBehavior = {
  id: 'hey-lazy-images',
  kind: 'addition',
  severity: 'info',
  summary: 'HEY adds loading="lazy" to every image (replacing the email\'s own loading value).',
  evidence: [{ url: 'https://www.caniemail.com/features/html-loading-attribute/', title: 'caniemail: loading attribute (HEY note 3)', date: '2021-10-27' }],
  addsAttributes: { on: ['img'], attributes: [{ name: 'loading', value: 'lazy' }] },
  disabledBy: () => false,
  restyledBy: () => false,
  suggestion: 'Give images width and height attributes so that lazy loading does not shift the layout; a tracking pixel loads only when scrolled into view.',
  fixture: {
    html: '<img src="https://example.com/a.png" alt="A" width="600" height="200" loading="eager">',
    expect: { transformIncludes: ['loading="lazy"'], transformExcludes: ['loading="eager"'], finding: { rule: 'hey-lazy-images' } },
  },
  // An image without a loading attribute gets HEY's, and no note.
  counterFixture: {
    html: '<img src="https://example.com/a.png" alt="A" width="600" height="200">',
    expect: { transformIncludes: ['loading="lazy"'], noFindingFor: 'hey-lazy-images' },
  },
};

const partialDark = (id: string, summary: string, evidence: DarkBehavior['evidence']): DarkBehavior => ({
  id,
  kind: 'dark',
  model: 'partial-inversion',
  summary,
  evidence,
  fixture: { html: LIGHT_BODY, expect: { darkExcludes: ['background-color:#ffffff'], darkIncludes: ['style="background-color:#111111;color:#eeeeee"'] } },
});

const CHECKED = '2026-11-27';

export const OTHER_MODELS: Record<'samsung-mail' | 'fastmail' | 'hey-mail' | 'superhuman', ClientModel> = {
  'samsung-mail': { client: 'samsung-mail', engine: 'Blink', checkedAt: CHECKED, behaviors: [samsungDark] },
  fastmail: {
    client: 'fastmail',
    engine: 'Blink',
    checkedAt: CHECKED,
    behaviors: [fastmailDarkQuery, fastmailPositionFixed, fastmailCustomProperties, fastmailMedia, fastmailDark],
  },
  'hey-mail': {
    client: 'hey-mail',
    engine: 'Blink',
    checkedAt: CHECKED,
    behaviors: [
      heyDarkQuery,
      heyWordBreak,
      heyLazyImages,
      partialDark('hey-dark-partial', 'HEY darkens light backgrounds and lightens dark text in its dark theme (partial inversion).', [
        {
          url: 'https://www.caniemail.com/features/css-at-media-prefers-color-scheme/',
          title: 'caniemail: prefers-color-scheme (HEY: @media (false) since 2022-12)',
          date: '2023-03-08',
          note: 'How HEY recolors is not documented first-hand: disputed.',
        },
      ]),
    ],
  },
  superhuman: {
    client: 'superhuman',
    engine: 'Blink',
    checkedAt: CHECKED,
    behaviors: [
      partialDark('superhuman-dark-partial', 'Superhuman darkens light backgrounds and lightens dark text in its dark theme (partial inversion).', [
        {
          url: 'https://github.com/buttondown/roadmap/issues/1157',
          title: 'buttondown #1157: black-on-black text in Superhuman iOS dark mode',
          date: '2023-02-08',
          note: 'Anecdotal reports only; no vendor documentation: disputed.',
        },
      ]),
    ],
  },
};
