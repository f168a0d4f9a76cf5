/** The word tokens the spam rules match phrases against. */
import { foldForMatching, isAscii } from './context/text-utils';

const TOKEN = /[\p{L}\p{N}%$€£]+/gu;
/** TOKEN on folded ASCII text, where letters are a-z (folding lower-cased them) and numbers 0-9. */
const ASCII_TOKEN = /[a-z0-9%$]+/g;

/** Lower-case, accent-free word tokens; apostrophes and hyphens separate words. */
export function tokens(text: string): string[] {
  return (isAscii(text) ? text.toLowerCase().match(ASCII_TOKEN) : unicodeTokens(text)) ?? [];
}

/** tokens() without the ASCII shortcut (exported for the test that keeps the two equal). */
export function unicodeTokens(text: string): string[] {
  return foldForMatching(text).match(TOKEN) ?? [];
}
