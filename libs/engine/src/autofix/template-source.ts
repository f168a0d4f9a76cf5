import MagicString from 'magic-string';
import { sourcePositionAt, type SourcePosition } from '../compile/source-positions';
import type { FixCandidate, TextEdit } from './fix-model';

/** Characters that continue a value token: a match must not sit inside a longer one (`#fff` in `#fff000`). */
const TOKEN_CHARACTER = /[\w#%.-]/;

function offsetOf(source: string, line: number, column: number): number | undefined {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    offset = source.indexOf('\n', offset) + 1;
    if (offset === 0) return undefined;
  }
  return offset + column - 1;
}

/** The start tag written at `offset` (`<mj-text color="#fff">`): where its attributes can hold a value. */
function startTagAt(source: string, offset: number): { start: number; end: number } | undefined {
  if (source[offset] !== '<') return undefined;
  const tag = /^<[a-z][\w:-]*(?:[^>"']|"[^"]*"|'[^']*')*>/i.exec(source.slice(offset, offset + 20000));
  return tag ? { start: offset, end: offset + tag[0].length } : undefined;
}

/** The contents of every `<mj-style>` (what MJML copies into the compiled `<style>`). */
function mjStyleRanges(source: string): { start: number; end: number }[] {
  return [...source.matchAll(/<mj-style\b[^>]*>([\s\S]*?)<\/mj-style>/gi)].map((match) => {
    const start = (match.index as number) + match[0].indexOf('>') + 1;
    return { start, end: start + match[1].length };
  });
}

function compiledStyleRanges(html: string): { start: number; end: number }[] {
  return [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((match) => {
    const start = (match.index as number) + match[0].indexOf('>') + 1;
    return { start, end: start + match[1].length };
  });
}

/** Occurrences of `text` in `[start, end)` of `source` that are whole value tokens. */
function occurrences(source: string, text: string, scopes: readonly { start: number; end: number }[]): number[] {
  const found: number[] = [];
  for (const scope of scopes) {
    for (let at = source.indexOf(text, scope.start); at !== -1 && at + text.length <= scope.end; at = source.indexOf(text, at + 1)) {
      if (TOKEN_CHARACTER.test(source[at - 1] ?? '') || TOKEN_CHARACTER.test(source[at + text.length] ?? '')) continue;
      found.push(at);
    }
  }
  return found;
}

/** Where one compiled edit goes in the MJML source, or undefined when it cannot be placed for certain. */
function sourceEdit(
  source: string,
  compiled: string,
  positions: readonly SourcePosition[],
  edit: TextEdit,
  styles: { start: number; end: number }[],
): TextEdit | undefined {
  // Value edits only: an insertion or a removal has no written value in the source to stand for.
  if (edit.start === edit.end || edit.text === '') return undefined;
  const original = compiled.slice(edit.start, edit.end);
  if (original.trim() === '') return undefined;
  let scopes: { start: number; end: number }[] = [];
  if (styles.some((range) => edit.start >= range.start && edit.end <= range.end)) {
    scopes = mjStyleRanges(source);
  } else {
    const position = sourcePositionAt(positions, edit.start);
    const offset = position ? offsetOf(source, position.line, position.column) : undefined;
    const tag = offset === undefined ? undefined : startTagAt(source, offset);
    if (tag) scopes = [tag];
  }
  const found = occurrences(source, original, scopes);
  return found.length === 1 ? { start: found[0], end: found[0] + original.length, text: edit.text } : undefined;
}

/**
 * The MJML source with the fixes written into it, when every kept fix is a value edit whose exact text is
 * written once in the source element the compiled element came from (an mj-* attribute, an HTML element
 * inside mj-text) or in mj-style: `#fff` → `#ffffff`, a font stack, a resolved var(). Undefined otherwise,
 * and the patched email is the compiled HTML. `kept` holds edits of `compiled` itself (the only pass that
 * kept anything); `lines` are the kept candidates' lines in the source, in their order.
 */
export function patchMjmlSource(
  source: string,
  compiled: string,
  positions: readonly SourcePosition[],
  kept: readonly FixCandidate[],
): { source: string; lines: number[] } | undefined {
  if (kept.length === 0) return undefined;
  const styles = compiledStyleRanges(compiled);
  const edits = new Map<string, TextEdit>();
  // Each candidate's line in the source: where its first edit lands.
  const lines: number[] = [];
  for (const candidate of kept) {
    for (const edit of candidate.edits) {
      const placed = sourceEdit(source, compiled, positions, edit, styles);
      if (!placed) return undefined;
      if (lines.length < kept.indexOf(candidate) + 1) lines.push(source.slice(0, placed.start).split('\n').length);
      // One source value can render into several compiled places (an mj-button color in bgcolor and style).
      const key = `${placed.start}:${placed.end}`;
      const same = edits.get(key);
      if (same && same.text !== placed.text) return undefined;
      edits.set(key, placed);
    }
  }
  const sorted = [...edits.values()].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) if (sorted[i].start < sorted[i - 1].end) return undefined;
  const text = new MagicString(source);
  for (const edit of sorted) text.overwrite(edit.start, edit.end, edit.text);
  return { source: text.toString(), lines };
}
