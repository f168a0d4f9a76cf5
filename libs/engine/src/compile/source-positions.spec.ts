import type { CssFinding } from '../analysis/css-finding';
import { placeFindingsInSource, sourcePositionAt } from './source-positions';

const finding = (line?: number, column?: number): CssFinding => ({
  severity: 'warning',
  client: 'gmail-web',
  property: 'gap',
  message: 'm',
  suggestion: 's',
  rule: 'css-gap',
  occurrences: 1,
  ...(line !== undefined ? { line, column } : {}),
});

describe('source positions', () => {
  // <div>(a)<p>(b)</p>(c)</div> with the div from 2:3 and the p from 4:5.
  const html = '<div>a<p>b</p>c</div>\n<span>d</span>';
  const positions = [
    { start: 0, end: 21, line: 2, column: 3 },
    { start: 6, end: 14, line: 4, column: 5 },
  ];

  it('finds the innermost annotated element around an offset', () => {
    expect(sourcePositionAt(positions, 7)).toMatchObject({ line: 4 });
    expect(sourcePositionAt(positions, 15)).toMatchObject({ line: 2 });
    expect(sourcePositionAt(positions, 0)).toMatchObject({ line: 2 });
    expect(sourcePositionAt(positions, 22)).toBeUndefined();
    expect(sourcePositionAt([], 3)).toBeUndefined();
  });

  it('moves compiled positions aside and puts source positions in line/column', () => {
    expect(placeFindingsInSource([finding(1, 8), finding(1, 16), finding(2, 1), finding()], html, positions)).toEqual([
      { ...finding(), line: 4, column: 5, compiledLine: 1, compiledColumn: 8 },
      { ...finding(), line: 2, column: 3, compiledLine: 1, compiledColumn: 16 },
      { ...finding(), compiledLine: 2, compiledColumn: 1 },
      finding(),
    ]);
  });
});
