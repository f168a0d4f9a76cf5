export const CLIENT_IDS = [
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

export type ClientId = (typeof CLIENT_IDS)[number];

export type ClientCategory = 'webmail' | 'desktop' | 'mobile';

/**
 * How a client treats an email in dark mode (each client's is a dark behavior of its model, clients/models/):
 * - `none`: the UI turns dark, the email keeps its colors;
 * - `partial-inversion`: light backgrounds darken and dark text lightens, dark areas stay;
 * - `full-inversion`: every color is inverted;
 * - `prefers-color-scheme`: no inversion, the email's own dark media query applies;
 * - `partial-inversion-unless-dark-query`: Samsung: the email's dark rules win when present;
 * - `color-removal`: Thunderbird's dark reader: light backgrounds and dark text colors are removed (not
 *   inverted) over the reader's own dark page.
 */
export type DarkModeBehavior =
  'none' | 'partial-inversion' | 'full-inversion' | 'prefers-color-scheme' | 'partial-inversion-unless-dark-query' | 'color-removal';

export interface EmailClient {
  id: ClientId;
  name: string;
  category: ClientCategory;
  /** The engine that paints the email (WebKit, Blink, Word, Gecko), from the client's model. */
  engine: 'WebKit' | 'Blink' | 'Word' | 'Gecko';
  /** What stands in front of it: `Gmail web sanitizer`, `Outlook web sanitizer (WebView2)`. */
  renderer: string;
  /** How the client paints the email in dark mode: its model's dark behavior. */
  darkMode: DarkModeBehavior;
  /** When the client's model was last checked against its sources (ISO date). */
  modelCheckedAt: string;
  /** caniemail `family.platform` keys; several means "worst result wins". Empty: no data. */
  supportSources: readonly string[];
  /** Why this client's support data looks the way it does, when that is not obvious. */
  supportNote?: string;
}
