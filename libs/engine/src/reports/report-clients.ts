/**
 * The client facts the reports need. Kept local to reports/ so the reports do not depend on the engine's
 * clients module while it is being written; the ids are decisions.md section 1 and the caniemail keys
 * follow the same table. Deduplicate against the clients module once it exists.
 */

export const REPORT_CLIENT_IDS = [
  'gmail-web',
  'gmail-android',
  'gmail-ios',
  'outlook-web',
  'outlook-windows',
  'outlook-windows-legacy',
  'outlook-macos',
  'outlook-ios',
  'outlook-android',
  'apple-mail-macos',
  'apple-mail-ios',
  'yahoo-mail',
  'yahoo-mail-ios',
  'yahoo-mail-android',
  'aol',
  'samsung-mail',
  'thunderbird',
  'protonmail',
  'fastmail',
  'hey-mail',
  'superhuman',
] as const;

export type ReportClientId = (typeof REPORT_CLIENT_IDS)[number];

/** caniemail `family.platform` keys per client (decisions.md section 1); superhuman has no data. */
const CANIEMAIL_KEYS: Record<ReportClientId, readonly string[]> = {
  'gmail-web': ['gmail.desktop-webmail'],
  'gmail-android': ['gmail.android'],
  'gmail-ios': ['gmail.ios'],
  'outlook-web': ['outlook.outlook-com'],
  'outlook-windows': ['outlook.outlook-com'],
  'outlook-windows-legacy': ['outlook.windows'],
  'outlook-macos': ['outlook.macos'],
  'outlook-ios': ['outlook.ios'],
  'outlook-android': ['outlook.android'],
  'apple-mail-macos': ['apple-mail.macos'],
  'apple-mail-ios': ['apple-mail.ios'],
  'yahoo-mail': ['yahoo.desktop-webmail'],
  'yahoo-mail-ios': ['yahoo.ios'],
  'yahoo-mail-android': ['yahoo.android'],
  aol: ['aol.desktop-webmail'],
  'samsung-mail': ['samsung-email.android'],
  thunderbird: ['thunderbird.macos', 'thunderbird.windows'],
  protonmail: ['protonmail.desktop-webmail'],
  fastmail: ['fastmail.desktop-webmail'],
  'hey-mail': ['hey.desktop-webmail'],
  superhuman: [],
};

/** Clients whose dark mode applies the email's own `prefers-color-scheme: dark` rules. */
export const CLIENTS_HONOURING_DARK_MEDIA: ReadonlySet<string> = new Set(['apple-mail-macos', 'apple-mail-ios']);

export type SupportLevel = 'supported' | 'partial' | 'unsupported' | 'unknown';

interface CaniemailFeature {
  slug: string;
  stats: Record<string, Record<string, Record<string, string>>>;
  notes_by_num?: Record<string, string> | null;
}

// Loaded with require, not a typed JSON import: the file is large and only these fields are read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const FEATURES: readonly CaniemailFeature[] = (require('caniemail/caniemail.json') as { data: CaniemailFeature[] }).data;
const FEATURE_BY_SLUG = new Map(FEATURES.map((feature) => [feature.slug, feature]));

function supportFromStat(stat: string | undefined): SupportLevel {
  if (!stat) return 'unknown';
  const letter = stat.trim().charAt(0);
  if (letter === 'y') return 'supported';
  if (letter === 'a') return 'partial';
  if (letter === 'n') return 'unsupported';
  return 'unknown';
}

/**
 * Support of one caniemail feature for one client. The newest listed version counts (caniemail lists
 * versions oldest first); a client mapped to several platforms takes the weakest of them.
 */
export function caniemailSupport(slug: string, clientId: string): SupportLevel {
  const feature = FEATURE_BY_SLUG.get(slug);
  const keys = CANIEMAIL_KEYS[clientId as ReportClientId];
  if (!feature || !keys || keys.length === 0) return 'unknown';
  const rank: Record<SupportLevel, number> = { unsupported: 0, partial: 1, unknown: 2, supported: 3 };
  let weakest: SupportLevel | null = null;
  for (const key of keys) {
    const [family, platform] = key.split('.');
    const versions = feature.stats[family]?.[platform];
    const versionKeys = versions ? Object.keys(versions) : [];
    const level = supportFromStat(versions?.[versionKeys[versionKeys.length - 1]]);
    if (weakest === null || rank[level] < rank[weakest]) weakest = level;
  }
  return weakest ?? 'unknown';
}

/**
 * Characters of subject and preview text each client's default inbox list shows before it cuts with an
 * ellipsis, at a common window or phone width. These are measured approximations (proportional fonts
 * vary); 0 means the list shows no preview text at all. See docs/reports.md.
 */
export const INBOX_LIMITS: Record<ReportClientId, { subject: number; preheader: number }> = {
  'gmail-web': { subject: 70, preheader: 90 },
  'gmail-android': { subject: 40, preheader: 45 },
  'gmail-ios': { subject: 40, preheader: 45 },
  'outlook-web': { subject: 60, preheader: 90 },
  'outlook-windows': { subject: 60, preheader: 90 },
  'outlook-windows-legacy': { subject: 55, preheader: 35 },
  'outlook-macos': { subject: 55, preheader: 75 },
  'outlook-ios': { subject: 40, preheader: 90 },
  'outlook-android': { subject: 40, preheader: 90 },
  'apple-mail-macos': { subject: 78, preheader: 140 },
  'apple-mail-ios': { subject: 41, preheader: 90 },
  'yahoo-mail': { subject: 46, preheader: 100 },
  'yahoo-mail-ios': { subject: 40, preheader: 80 },
  'yahoo-mail-android': { subject: 40, preheader: 80 },
  aol: { subject: 46, preheader: 100 },
  'samsung-mail': { subject: 40, preheader: 70 },
  thunderbird: { subject: 80, preheader: 0 },
  protonmail: { subject: 60, preheader: 0 },
  fastmail: { subject: 60, preheader: 100 },
  'hey-mail': { subject: 50, preheader: 90 },
  superhuman: { subject: 50, preheader: 60 },
};

export function isReportClientId(id: string): id is ReportClientId {
  return (REPORT_CLIENT_IDS as readonly string[]).includes(id);
}
