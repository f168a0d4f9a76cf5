const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;

/**
 * UTF-8 byte length of a string without allocating an encoded copy (the HTML can be 500 KB) and without
 * Buffer (source-files.ts also runs where there is none). A lone surrogate counts 3 bytes, as U+FFFD.
 * Dependency-free on purpose: the one implementation for the engine's limits, size report and files map.
 */
export function utf8Length(text: string): number {
  // ASCII (most markup and CSS) is one byte per character: one native scan instead of a loop.
  if (!NON_ASCII.test(text)) return text.length;
  // Every code unit counts one byte; only the runs of non-ASCII units (a few in most emails) are walked
  // for the bytes they add, so a 500 KB email with a few accents is not looped over character by character.
  let bytes = text.length;
  NON_ASCII_RUN.lastIndex = 0;
  for (let run = NON_ASCII_RUN.exec(text); run !== null; run = NON_ASCII_RUN.exec(text)) {
    const end = run.index + run[0].length;
    for (let i = run.index; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x800) bytes += 1;
      else if (code >= 0xd800 && code <= 0xdbff && i + 1 < end) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          // A surrogate pair: two units, four bytes.
          bytes += 2;
          i++;
        } else bytes += 2;
      } else bytes += 2;
    }
  }
  return bytes;
}
