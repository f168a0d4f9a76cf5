/** Text helpers shared by the reports. Every pattern here is linear: no nested quantifiers. */

/** Characters that render as nothing; preheader padding and obfuscation use them. */
const INVISIBLE = new Set(['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u034F', '\u00AD', '\u180E', '\u115F', '\u1160', '\u3164', '\u2800']);

export function isInvisibleChar(char: string): boolean {
  return INVISIBLE.has(char);
}

export function stripInvisible(text: string): string {
  let result = '';
  for (const char of text) if (!INVISIBLE.has(char)) result += char;
  return result;
}

/** Collapses runs of white space (including no-break spaces) into one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** User-perceived characters, so an emoji or an accented letter counts once. */
export function graphemeCount(text: string): number {
  let count = 0;
  for (const _segment of segmenter.segment(text)) count++;
  return count;
}

/** The first `max` user-perceived characters (plus one, to tell whether more follow). */
export function graphemesOf(text: string, max = Number.MAX_SAFE_INTEGER): string[] {
  const segments: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    segments.push(segment);
    if (segments.length > max) break;
  }
  return segments;
}

/** Cuts to `limit` user-perceived characters, ending in "…" when cut. Segment once, cut many times. */
export function truncateGraphemes(text: string | readonly string[], limit: number): { text: string; truncated: boolean } {
  const segments = typeof text === 'string' ? graphemesOf(text, limit) : text;
  const whole = typeof text === 'string' ? text : text.join('');
  if (limit <= 0) return { text: '', truncated: segments.length > 0 };
  if (segments.length <= limit) return { text: whole, truncated: false };
  return { text: `${segments.slice(0, limit - 1).join('').trimEnd()}…`, truncated: true };
}

/** Words made of letters and digits (any script). */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu) ?? [];
}

/** Lower case without diacritics, for matching phrase lists across spellings. */
export function foldForMatching(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/ß/g, 'ss');
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

/** UTF-8 byte length without allocating an encoded copy (the HTML can be 500 KB). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
