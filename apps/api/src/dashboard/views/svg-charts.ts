import { html, type SafeHtml } from './html';

export interface SeriesPoint {
  at: Date;
  value: number;
  /** Drawn as a marker in this tone (e.g. a failed gate run). */
  tone?: 'good' | 'bad';
}

const WIDTH = 480;
const PAD = { top: 14, right: 12, bottom: 30, left: 36 };

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * A 0-100 score over time as server-rendered SVG: no script, so it works under the `'self'` CSP,
 * without JavaScript and in tests. The numbers stay readable to screen readers through the
 * chart's title and description (and the tables next to each chart).
 */
export function scoreLineChart(id: string, title: string, points: SeriesPoint[], height = 200): SafeHtml {
  if (points.length === 0) return html`<p class="meta" id="${id}">No data yet.</p>`;
  const sorted = [...points].sort((a, b) => a.at.getTime() - b.at.getTime());
  const first = sorted[0].at.getTime();
  const last = sorted[sorted.length - 1].at.getTime();
  const span = Math.max(1, last - first);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (at: Date) => PAD.left + (sorted.length === 1 ? plotW / 2 : ((at.getTime() - first) / span) * plotW);
  const y = (value: number) => PAD.top + plotH - (Math.max(0, Math.min(100, value)) / 100) * plotH;
  const path = sorted.map((p) => `${x(p.at).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const values = sorted.map((p) => p.value);
  const summary = `${sorted.length} points from ${day(sorted[0].at)} to ${day(sorted[sorted.length - 1].at)}; latest ${values[values.length - 1]}, lowest ${Math.min(...values)}, highest ${Math.max(...values)}.`;
  const grid = [0, 50, 100].map(
    (v) =>
      html`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(v)}" y2="${y(v)}" class="grid"></line><text x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`,
  );
  const markers =
    sorted.length <= 400
      ? sorted
          .filter((p) => p.tone)
          .map((p) => html`<circle cx="${x(p.at).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3.5" class="dot-${p.tone ?? 'good'}"></circle>`)
      : [];
  return html`<figure class="chart"><svg id="${id}" class="line-chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc">
<title id="${id}-title">${title}</title><desc id="${id}-desc">${summary}</desc>
${grid}
<polyline points="${path}" class="series"></polyline>
${markers}
<text x="${PAD.left}" y="${height - 8}">${day(sorted[0].at)}</text><text x="${WIDTH - PAD.right}" y="${height - 8}" text-anchor="end">${day(sorted[sorted.length - 1].at)}</text>
</svg><figcaption class="meta">${title}: ${summary}</figcaption></figure>`;
}

export interface Bar {
  label: string;
  value: number;
}

/** Horizontal bars with their values written out (usage per kind). */
export function barChart(id: string, title: string, bars: Bar[]): SafeHtml {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const rowH = 28;
  const labelW = 120;
  const height = bars.length * rowH + 8;
  const rows = bars.map((bar, i) => {
    const w = ((WIDTH - labelW - 60) * bar.value) / max;
    const top = 4 + i * rowH;
    return html`<text x="${labelW - 8}" y="${top + 19}" text-anchor="end">${bar.label}</text><rect x="${labelW}" y="${top + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" class="bar"></rect><text x="${(labelW + w + 6).toFixed(1)}" y="${top + 19}">${bar.value}</text>`;
  });
  const summary = bars.map((b) => `${b.label} ${b.value}`).join(', ');
  return html`<figure class="chart"><svg id="${id}" class="bar-chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc">
<title id="${id}-title">${title}</title><desc id="${id}-desc">${summary}</desc>${rows}</svg></figure>`;
}

/** Daily counts as small columns (a key's requests per day over 30 days). */
export function dailyColumns(id: string, title: string, days: { date: string; count: number }[], height = 90): SafeHtml {
  const max = Math.max(1, ...days.map((d) => d.count));
  const plotH = height - 22;
  const step = (WIDTH - PAD.left - PAD.right) / Math.max(1, days.length);
  const columns = days.map((d, i) => {
    const h = (plotH * d.count) / max;
    return html`<rect x="${(PAD.left + i * step + 1).toFixed(1)}" y="${(4 + plotH - h).toFixed(1)}" width="${Math.max(1, step - 2).toFixed(1)}" height="${h.toFixed(1)}" class="bar"></rect>`;
  });
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const summary = days.length ? `${total} requests from ${days[0].date} to ${days[days.length - 1].date}, at most ${max} a day.` : 'No days.';
  return html`<figure class="chart"><svg id="${id}" class="day-chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc">
<title id="${id}-title">${title}</title><desc id="${id}-desc">${summary}</desc>${columns}
<text x="${PAD.left}" y="${height - 4}">${days[0]?.date ?? ''}</text><text x="${WIDTH - PAD.right}" y="${height - 4}" text-anchor="end">${days[days.length - 1]?.date ?? ''}</text></svg></figure>`;
}
