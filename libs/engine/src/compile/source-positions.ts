import type { CssFinding } from '../analysis/css-finding';

/**
 * An element of the compiled HTML that came from an element of the author's source: its range in the
 * compiled HTML (`start` at its `<`, `end` after its end tag) and the source position it came from
 * (1-based). The sandbox finds them while compiling (docs/compile.md, "Positions in the source").
 */
export interface SourcePosition {
  start: number;
  end: number;
  line: number;
  column: number;
}

/**
 * The source position of the innermost annotated element around `offset` of the compiled HTML.
 * `positions` are sorted by `start`.
 */
export function sourcePositionAt(positions: readonly SourcePosition[], offset: number): SourcePosition | undefined {
  let low = 0;
  let high = positions.length - 1;
  let last = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (positions[mid].start <= offset) {
      last = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  // Elements nest, so the innermost one around the offset is the latest-starting one that has not ended.
  for (let i = last; i >= 0; i--) if (positions[i].end > offset) return positions[i];
  return undefined;
}

/**
 * Findings of a compiled template, placed in its source: `line`/`column` become the position of the
 * source element the compiled element came from, and the compiled position moves to
 * `compiledLine`/`compiledColumn` (into `compiledHtml`). A finding whose compiled position came from no
 * source element (CSS the framework generated, a component's own markup) keeps only the compiled one.
 */
export function placeFindingsInSource(findings: readonly CssFinding[], compiledHtml: string, positions: readonly SourcePosition[]): CssFinding[] {
  const lineStarts = [0];
  for (let i = 0; i < compiledHtml.length; i++) if (compiledHtml.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return findings.map((finding) => {
    if (finding.line === undefined) return finding;
    const { line, column, ...rest } = finding;
    const offset = (lineStarts[line - 1] ?? compiledHtml.length) + (column ?? 1) - 1;
    const source = sourcePositionAt(positions, offset);
    const compiled = { compiledLine: line, ...(column !== undefined ? { compiledColumn: column } : {}) };
    return source ? { ...rest, line: source.line, column: source.column, ...compiled } : { ...rest, ...compiled };
  });
}
