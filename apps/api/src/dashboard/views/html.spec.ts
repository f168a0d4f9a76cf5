import { html, raw } from './html';
import { barChart, scoreLineChart } from './svg-charts';

describe('the dashboard html template', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const title = `<script>alert("x")</script>' onmouseover='1`;
    const out = html`<a title="${title}">${title}</a>`.value;
    expect(out).toBe(
      '<a title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;1">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;1</a>',
    );
  });

  it('nests templates without escaping them twice, joins arrays and drops null, undefined and false', () => {
    const items = ['a&b', '<i>'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe('<ul><li>a&amp;b</li><li>&lt;i&gt;</li></ul>0');
  });

  it('writes raw() markup as given (code-made markup only)', () => {
    expect(html`<div>${raw('<svg></svg>')}</div>`.value).toBe('<div><svg></svg></div>');
  });
});

describe('the dashboard charts', () => {
  it('draws one point per value, oldest first, and escapes the title', () => {
    const points = [
      { at: new Date('2026-01-03T00:00:00Z'), value: 50 },
      { at: new Date('2026-01-01T00:00:00Z'), value: 100, tone: 'good' as const },
      { at: new Date('2026-01-02T00:00:00Z'), value: 0, tone: 'bad' as const },
    ];
    const svg = scoreLineChart('c', '<b>Scores</b>', points).value;
    const coordinates = /points="([^"]+)"/
      .exec(svg)![1]
      .split(' ')
      .map((pair) => pair.split(',').map(Number));
    expect(coordinates).toHaveLength(3);
    expect(coordinates.map(([x]) => x)).toEqual([...coordinates.map(([x]) => x)].sort((a, b) => a - b));
    // 100 is drawn highest (smallest y), 0 lowest.
    expect(coordinates[0][1]).toBeLessThan(coordinates[2][1]);
    expect(coordinates[1][1]).toBeGreaterThan(coordinates[2][1]);
    expect(svg).toContain('&lt;b&gt;Scores&lt;/b&gt;');
    expect(svg).not.toContain('<b>');
    expect(svg.match(/<circle/g)).toHaveLength(2);
    expect(svg).toContain('latest 50, lowest 0, highest 100');
  });

  it('says so when there is nothing to draw', () => {
    expect(scoreLineChart('c', 'Scores', []).value).toContain('No data yet.');
  });

  it('sizes bars by value and writes each value out', () => {
    const svg = barChart('k', 'Usage', [
      { label: 'Previews', value: 10 },
      { label: 'Gate', value: 5 },
      { label: 'MCP', value: 0 },
    ]).value;
    const widths = [...svg.matchAll(/<rect [^>]*width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths[0]).toBeCloseTo(widths[1] * 2, 1);
    expect(widths[2]).toBe(0);
    expect(svg).toContain('Previews 10, Gate 5, MCP 0');
  });
});
