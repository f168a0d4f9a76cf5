import { getAttribute } from '../../parse/dom';
import type { ParsedEmail } from '../../parse/parse-email';
import { escapeAttributeValue, escapeText } from '../../parse/html-escape';
import type { AdditionBehavior, ClientModel, DarkBehavior, RewriteBehavior } from './client-behavior';

/**
 * Apple Mail (macOS and iOS): WebKit, with the email's own dark rules when it opts in with `color-scheme`,
 * and on iOS data detectors that turn phone numbers, dates, times and addresses into links.
 */

type DetectorType = 'telephone' | 'calendar-event' | 'address';

const MONTHS = 'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';
const DAYS = 'Mon(?:day)?|Tue(?:s(?:day)?)?|Wed(?:nesday)?|Thu(?:r(?:s(?:day)?)?)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?';
const STREETS = 'Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Loop|Place|Pl|Court|Ct|Square|Sq';

/** What Apple's detectors recognize, in the order they are tried (first match wins at a position). */
const DETECTORS: ReadonlyArray<{ type: DetectorType; pattern: RegExp }> = [
  // A street address: number, capitalised street name, street type (1 Infinite Loop, 221 Baker Street).
  { type: 'address', pattern: new RegExp(String.raw`\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:${STREETS})\b\.?(?:,\s*[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)?`, 'g') },
  // Dates: March 3, 2026 / 3 March 2026 / Monday, March 3 / 03/14/2026 / 2026-03-14.
  {
    type: 'calendar-event',
    pattern: new RegExp(
      String.raw`\b(?:(?:${DAYS}),?\s+)?(?:(?:${MONTHS})\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|\d{1,2}(?:st|nd|rd|th)?\s+(?:${MONTHS})\.?(?:\s+\d{4})?)\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b`,
      'g',
    ),
  },
  // Times: 6:00am, 10:30 PM, 14:00.
  { type: 'calendar-event', pattern: /\b(?:[01]?\d|2[0-3]):[0-5]\d\s?(?:[ap]\.?m\.?)?(?![\d:])/gi },
  // Phone numbers: at least 7 digits, with the usual separators (555-123-4567, +1 (555) 123 4567).
  { type: 'telephone', pattern: /(?<![\w/-])\+?\(?\d{1,4}\)?(?:[\s.-]?\(?\d{2,4}\)?){2,4}(?![\w/-])/g },
];

function digits(text: string): number {
  return text.replace(/\D/g, '').length;
}

const DISABLED_BY_EMAIL = new WeakMap<ParsedEmail, Set<DetectorType>>();

/** The format-detection meta's `telephone=no`, `date=no`, `address=no` (read once per email). */
function disabledTypes(parsed: ParsedEmail): Set<DetectorType> {
  const known = DISABLED_BY_EMAIL.get(parsed);
  if (known) return known;
  const disabled = new Set<DetectorType>();
  DISABLED_BY_EMAIL.set(parsed, disabled);
  for (const meta of parsed.elementsByTag.get('meta') ?? []) {
    if ((getAttribute(meta, 'name') ?? '').toLowerCase() !== 'format-detection') continue;
    const content = (getAttribute(meta, 'content') ?? '').toLowerCase();
    if (/telephone\s*=\s*no/.test(content)) disabled.add('telephone');
    if (/date\s*=\s*no/.test(content)) disabled.add('calendar-event');
    if (/address\s*=\s*no/.test(content)) disabled.add('address');
  }
  return disabled;
}

/** Link markup Apple adds around a detected string, its attributes as Mail writes them. */
function detectorLink(text: string, type: DetectorType): string {
  const href =
    type === 'telephone'
      ? `tel:${text.replace(/[^\d+]/g, '')}`
      : type === 'address'
        ? `https://maps.apple.com/?q=${encodeURIComponent(text)}`
        : `x-apple-data-detectors://${encodeURIComponent(text)}`;
  return `<a href="${escapeAttributeValue(href)}" dir="ltr" x-apple-data-detectors="true" x-apple-data-detectors-type="${type}">${escapeText(text)}</a>`;
}

/** Wraps what the enabled detectors find in `text`; undefined when nothing matched. */
export function addDataDetectorLinks(text: string, disabled: ReadonlySet<DetectorType> = new Set()): { text: string; count: number } | undefined {
  if (!/\d/.test(text)) return undefined;
  const matches: Array<{ start: number; end: number; type: DetectorType }> = [];
  for (const { type, pattern } of DETECTORS) {
    if (disabled.has(type)) continue;
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].trimEnd().length;
      if (type === 'telephone' && digits(match[0]) < 7) continue;
      if (matches.some((m) => start < m.end && end > m.start)) continue;
      matches.push({ start, end, type });
    }
  }
  if (matches.length === 0) return undefined;
  matches.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += escapeText(text.slice(at, m.start)) + detectorLink(text.slice(m.start, m.end), m.type);
    at = m.end;
  }
  return { text: out + escapeText(text.slice(at)), count: matches.length };
}

const DETECTOR_RESET = /a\[x-apple-data-detectors/i;

const dataDetectors: AdditionBehavior = {
  id: 'apple-data-detectors',
  kind: 'addition',
  severity: 'warning',
  summary:
    "Apple Mail on iOS turns phone numbers, dates, times and street addresses into links (data detectors), painted in its link blue over the email's text color.",
  evidence: [
    {
      url: 'https://github.com/Tautulli/Tautulli/pull/1383',
      title: 'Tautulli #1383: fix styling of Apple data detectors in newsletters (the added markup)',
      date: '2020-10-21',
      note: 'The report also says the format-detection meta did not stop the links there; Apple documents telephone=no for WebKit: disputed, the documented meta is modeled.',
    },
    {
      url: 'https://www.emailonacid.com/blog/article/email-development/demystifying-meta-tags-in-email',
      title: 'Email on Acid: Demystifying meta tags in email (format-detection)',
      date: '2018',
    },
    { url: 'https://github.com/JayOram/email-css-resets/pull/9', title: 'email-css-resets #9: reset for calendar-event detectors', date: '2023-05' },
  ],
  disabledBy: (parsed) => disabledTypes(parsed).size === 3,
  restyledBy: (parsed) => parsed.styleSheets.some((sheet) => DETECTOR_RESET.test(sheet.text)),
  addTo: (text, parsed) => addDataDetectorLinks(text, disabledTypes(parsed)),
  suggestion:
    'Add <meta name="format-detection" content="telephone=no, date=no, address=no"> to keep the text as written, or restyle the links with a[x-apple-data-detectors] { color: inherit !important; text-decoration: none !important; font: inherit !important; }.',
  fixture: {
    html: '<html><head></head><body><p style="color:#999999">Call 555-123-4567 before March 3, 2026 at 6:00pm.</p></body></html>',
    expect: {
      transformIncludes: ['x-apple-data-detectors-type="telephone"', 'href="tel:5551234567"', 'x-apple-data-detectors-type="calendar-event"'],
      finding: { rule: 'apple-data-detectors', severity: 'warning' },
    },
  },
  counterFixture: {
    html: '<html><head><meta name="format-detection" content="telephone=no, date=no, address=no"></head><body><p>Call 555-123-4567 on March 3, 2026.</p></body></html>',
    expect: { transformExcludes: ['x-apple-data-detectors'], noFindingFor: 'apple-data-detectors' },
  },
};

const APPLE_DARK_EVIDENCE = [
  {
    url: 'https://github.com/hteumeuleu/email-bugs/issues/104',
    title: 'email-bugs #104: Apple Mail requires the supported-color-schemes meta or CSS property for dark mode (open)',
    date: '2023-09-19',
  },
  { url: 'https://www.caniemail.com/features/css-color-scheme/', title: 'caniemail: color-scheme', date: '2023-09-18' },
  { url: 'https://webkit.org/blog/8840/dark-mode-support-in-webkit/', title: 'WebKit: Dark mode support in WebKit', date: '2019' },
];

const appleDark: DarkBehavior = {
  id: 'apple-dark-color-scheme',
  kind: 'dark',
  model: 'prefers-color-scheme',
  requiresColorSchemeOptIn: true,
  summary:
    "Apple Mail applies the email's @media (prefers-color-scheme: dark) rules when the email opts in with color-scheme (a meta or :root { color-scheme: light dark }); without the opt-in it stays light.",
  evidence: APPLE_DARK_EVIDENCE,
  fixture: {
    html: '<html><head><meta name="color-scheme" content="light dark"><style>:root{color-scheme:light dark}@media (prefers-color-scheme:dark){.c{background-color:#111111 !important}}</style></head><body><div class="c">Hi</div></body></html>',
    expect: { darkIncludes: ['.c{background-color:#111111 !important;}'], darkExcludes: ['@media (prefers-color-scheme'] },
  },
  counterFixture: {
    html: '<html><head><style>@media (prefers-color-scheme:dark){.c{background-color:#111111 !important}}</style></head><body><div class="c">Hi</div></body></html>',
    expect: { darkIncludes: ['@media (prefers-color-scheme:dark)'] },
  },
};

const PURE_WHITE = /^\s*(#fff|#ffffff|white|rgb\(\s*255\s*,\s*255\s*,\s*255\s*\))\s*$/i;

const pureWhiteIgnored: RewriteBehavior = {
  id: 'apple-dark-ignores-pure-white',
  kind: 'rewrite',
  severity: 'info',
  label: '#ffffff in dark rules',
  summary: "Apple Mail ignores a pure white background (#ffffff) set inside the email's dark rules; #fffffe works (the usual workaround).",
  evidence: [
    {
      url: 'https://github.com/hteumeuleu/email-bugs/issues/65',
      title: 'email-bugs #65: Apple Mail does not respect background-color #ffffff in a prefers-color-scheme query (open)',
      date: '2019-10-15',
    },
  ],
  rewriteInDarkRules: (d) =>
    (d.property === 'background-color' || d.property === 'background') && PURE_WHITE.test(d.value.replace(/!important/i, '')) ? null : undefined,
  suggestion: 'Write #fffffe for a white background in dark rules.',
  fixture: {
    html: '<html><head><meta name="color-scheme" content="light dark"><style>@media (prefers-color-scheme:dark){.card{background-color:#ffffff !important;color:#000000 !important}}</style></head><body><div class="card">Hi</div></body></html>',
    expect: { darkIncludes: ['.card{color:#000000 !important;}'], darkExcludes: ['background-color:#ffffff'] },
  },
};

const CHECKED = '2026-11-27';

export const APPLE_MODELS: Record<'apple-mail-macos' | 'apple-mail-ios', ClientModel> = {
  'apple-mail-macos': { client: 'apple-mail-macos', engine: 'WebKit', checkedAt: CHECKED, behaviors: [pureWhiteIgnored, appleDark] },
  'apple-mail-ios': { client: 'apple-mail-ios', engine: 'WebKit', checkedAt: CHECKED, behaviors: [dataDetectors, pureWhiteIgnored, appleDark] },
};
