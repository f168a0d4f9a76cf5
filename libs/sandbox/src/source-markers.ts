import { Parser } from 'htmlparser2';
import type { SourcePosition } from '@mailproof/engine/compile';

/**
 * How a compiler tells where an element came from: JSX and Maizzle put `data-mailproof-src="L:C"` on
 * the elements they render from the author's source; MJML, whose components own their markup, gets a
 * `css-class` token `mailproof-src-L-C` (MJML copies it to the element it renders, and `-outlook` onto
 * its Outlook tables). `takeSourceMarkers` removes every marker and returns where each marked element
 * is in the clean HTML.
 */
export const SOURCE_MARKER_ATTRIBUTE = 'data-mailproof-src';
export const SOURCE_MARKER_CLASS_PREFIX = 'mailproof-src-';

const MARKER_TEXT = / data-mailproof-src="\d+:\d+"| class="mailproof-src-\d+-\d+(?:-outlook)?"| mailproof-src-\d+-\d+(?:-outlook)?/g;
const CLASS_MARKER = /(?:^|\s)mailproof-src-(\d+)-(\d+)(?:\s|$)/;

export function sourceMarkerAttribute(line: number, column: number): string {
  return ` ${SOURCE_MARKER_ATTRIBUTE}="${line}:${column}"`;
}

export function sourceMarkerClass(line: number, column: number): string {
  return `${SOURCE_MARKER_CLASS_PREFIX}${line}-${column}`;
}

export function takeSourceMarkers(marked: string): { html: string; sourcePositions: SourcePosition[] } {
  if (!marked.includes('mailproof-src')) return { html: marked, sourcePositions: [] };
  // Element ranges in the marked HTML.
  const found: SourcePosition[] = [];
  const open: Array<SourcePosition | undefined> = [];
  const parser = new Parser(
    {
      onopentag(_name, attributes) {
        const position = markerOf(attributes);
        const entry = position ? { start: parser.startIndex, end: parser.endIndex + 1, ...position } : undefined;
        if (entry) found.push(entry);
        open.push(entry);
      },
      onclosetag() {
        const entry = open.pop();
        if (entry) entry.end = parser.endIndex + 1;
      },
    },
    { decodeEntities: false, lowerCaseAttributeNames: false, recognizeSelfClosing: true },
  );
  parser.end(marked);

  // The markers' text, removed; offsets move left by what was removed before them.
  const removedStarts: number[] = [];
  const removedBefore: number[] = [];
  let removed = 0;
  let html = '';
  let cursor = 0;
  for (const match of marked.matchAll(MARKER_TEXT)) {
    html += marked.slice(cursor, match.index);
    removed += match[0].length;
    removedStarts.push(match.index!);
    removedBefore.push(removed);
    cursor = match.index! + match[0].length;
  }
  html += marked.slice(cursor);
  const shift = (offset: number) => {
    let low = 0;
    let high = removedStarts.length - 1;
    let total = 0;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (removedStarts[mid] < offset) {
        total = removedBefore[mid];
        low = mid + 1;
      } else high = mid - 1;
    }
    return offset - total;
  };
  const sourcePositions = found.map((entry) => ({ ...entry, start: shift(entry.start), end: shift(entry.end) })).sort((a, b) => a.start - b.start);
  return { html, sourcePositions };
}

function markerOf(attributes: Record<string, string>): { line: number; column: number } | undefined {
  const direct = attributes[SOURCE_MARKER_ATTRIBUTE];
  const fromAttribute = direct ? /^(\d+):(\d+)$/.exec(direct) : null;
  const match = fromAttribute ?? (attributes.class ? CLASS_MARKER.exec(attributes.class) : null);
  return match ? { line: Number(match[1]), column: Number(match[2]) } : undefined;
}
