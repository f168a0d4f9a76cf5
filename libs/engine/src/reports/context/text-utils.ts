/** Text helpers shared by the reports. Every pattern here is linear: no nested quantifiers. */

/** Characters that render as nothing (the directional marks included); preheader padding and obfuscation use them. */
const INVISIBLE = new Set([
  '\u200B',
  '\u200C',
  '\u200D',
  '\u200E',
  '\u200F',
  '\u2060',
  '\uFEFF',
  '\u034F',
  '\u00AD',
  '\u180E',
  '\u115F',
  '\u1160',
  '\u3164',
  '\u2800',
]);

export function isInvisibleChar(char: string): boolean {
  return INVISIBLE.has(char);
}

/** The same characters, for a regular expression's character class. */
export const INVISIBLE_CHARACTERS = '\\u200B\\u200C\\u200D\\u200E\\u200F\\u2060\\uFEFF\\u034F\\u00AD\\u180E\\u115F\\u1160\\u3164\\u2800';
const ANY_INVISIBLE = new RegExp(`[${INVISIBLE_CHARACTERS}]`);
const ALL_INVISIBLE = new RegExp(ANY_INVISIBLE.source, 'g');

export function stripInvisible(text: string): string {
  // Most text has none; the test avoids building a copy.
  return ANY_INVISIBLE.test(text) ? text.replace(ALL_INVISIBLE, '') : text;
}

/**
 * Runs of white space other than a single space: a space and more white space, or a run that starts
 * with another white-space character. Each alternative starts with one character class, so the regex
 * engine passes over ordinary characters quickly; text without such a run comes back as it was.
 */
const COLLAPSIBLE_RUN = / \s+|[^\S ]\s*/g;

/** Turns every run of white space (including no-break spaces) into one space. */
export function collapseRuns(text: string): string {
  return text.replace(COLLAPSIBLE_RUN, ' ');
}

/** Collapses runs of white space (including no-break spaces) into one space and trims. */
export function collapseWhitespace(text: string): string {
  return collapseRuns(text).trim();
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
/**
 * Characters that can join a neighbor into one user-perceived character (UAX #29): marks, ZWJ/ZWNJ,
 * conjoining Hangul jamo, prepended concatenation marks, the two Thai/Lao spacing vowels, halfwidth
 * sound marks, CR (CR LF) and anything outside the BMP (emoji, flags). Text without them has one
 * character per UTF-16 unit, so the segmenter can be skipped.
 */
const NEEDS_SEGMENTER =
  /[\p{M}\r\u200c\u200d\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u0e33\u0eb3\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\uff9e\uff9f\u{10000}-\u{10ffff}\ud800-\udfff]/u;

/**
 * Text measured in user-perceived characters (an emoji or an accented letter counts once), segmented
 * once and cut many times (once per client). Plain Latin text skips the segmenter.
 */
export class GraphemeText {
  readonly count: number;
  /** End offset of each character; null when each UTF-16 unit is one character. */
  private readonly ends: number[] | null;

  constructor(readonly text: string) {
    if (!NEEDS_SEGMENTER.test(text)) {
      this.ends = null;
      this.count = text.length;
      return;
    }
    const ends: number[] = [];
    for (const { index, segment } of segmenter.segment(text)) ends.push(index + segment.length);
    this.ends = ends;
    this.count = ends.length;
  }

  /** Cuts to `limit` characters, ending in "…" when cut. */
  truncate(limit: number): { text: string; truncated: boolean } {
    if (limit <= 0) return { text: '', truncated: this.count > 0 };
    if (this.count <= limit) return { text: this.text, truncated: false };
    const end = this.ends ? (this.ends[limit - 2] ?? 0) : limit - 1;
    return { text: `${this.text.slice(0, end).trimEnd()}…`, truncated: true };
  }
}

/** User-perceived characters, so an emoji or an accented letter counts once. */
export function graphemeCount(text: string): number {
  return new GraphemeText(text).count;
}

/** Words made of letters and digits (any script). */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu) ?? [];
}

/** Lower case without diacritics, for matching phrase lists across spellings. */
const MARKS = /\p{M}+/gu;

export function foldForMatching(text: string): string {
  // ASCII text has no marks to drop and no ß: lower-casing is the whole fold.
  if (isAscii(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(MARKS, '').toLowerCase().replace(/ß/g, 'ss');
}

/** Human-readable byte size: "1.7 KB". */
export function humanBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

export function shorten(text: string, maxLength: number): string {
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Whether the text is all ASCII (then Unicode-aware patterns can be replaced by plain character ranges). */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

export { utf8Length } from '../../parse/utf8-length';
