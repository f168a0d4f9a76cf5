const NON_ASCII = /[^\x00-\x7f]/;

/**
 * UTF-8 byte length of a string without allocating an encoded copy (the HTML can be 500 KB) and without
 * Buffer (source-files.ts also runs where there is none). A lone surrogate counts 3 bytes, as U+FFFD.
 * Dependency-free on purpose: the one implementation for the engine's limits, size report and files map.
 */
export function utf8Length(text: string): number {
  // ASCII (most markup and CSS) is one byte per character: one native scan instead of a loop.
  if (!NON_ASCII.test(text)) return text.length;
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
