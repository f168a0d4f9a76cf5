/** The shape of the `caniemail` package's `caniemail.json` (only the fields the engine reads). */
export interface CaniemailFeature {
  slug: string;
  title: string;
  category: 'css' | 'html' | 'image' | 'others';
  keywords: string | null;
  url: string;
  last_test_date: string;
  stats: Record<string, Record<string, Record<string, string>>>;
  notes_by_num: Record<string, string> | null;
}

export interface CaniemailData {
  api_version: string;
  last_update_date: string;
  nicenames: { family: Record<string, string>; platform: Record<string, string> };
  data: CaniemailFeature[];
}

// Read from the installed package at load time, never copied into source: updating the caniemail
// package updates the support data.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- caniemail's data file, read as JSON
export const CANIEMAIL: CaniemailData = require('caniemail/caniemail.json') as CaniemailData;
