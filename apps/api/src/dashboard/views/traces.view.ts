import type { StoredSpan, WaterfallRow } from '@mailproof/tracing';
import { html, raw } from './html';
import { page, type PageContext } from './layout';

export interface TracePageModel {
  /** What the trace is of, as the heading says it ("Preview", "Gate run") and where that page is. */
  subject: { label: string; href: string };
  traceId: string | null;
  rows: WaterfallRow[];
  durationMs: number;
}

function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 1_000 ? value.toFixed(1) : value.toFixed(0);
}

/** The bar of one span: an SVG rectangle (the CSP allows no inline styles). */
function bar(row: WaterfallRow): ReturnType<typeof raw> {
  const x = Math.min(row.offsetPct, 99.8).toFixed(2);
  const width = Math.min(row.widthPct, 100 - Number(x)).toFixed(2);
  const fill = row.span.failed ? '#b3261e' : '#1f6feb';
  return raw(
    `<svg class="trace-bar" viewBox="0 0 100 10" preserveAspectRatio="none" width="100%" height="12" aria-hidden="true"><rect x="${x}" y="1" width="${width}" height="8" fill="${fill}"></rect></svg>`,
  );
}

function spanLabel(span: StoredSpan): string {
  return `${span.name}${span.service ? ` (${span.service})` : ''}`;
}

/** One trace as a waterfall: a row per span in tree order, its start and duration, and a bar on the trace's time line. */
export function tracePage(context: PageContext, model: TracePageModel): string {
  const { subject, rows } = model;
  const content =
    model.traceId === null || rows.length === 0
      ? html`<p>No trace is stored for this ${subject.label.toLowerCase()}: tracing was off when it ran, its trace was not sampled, or its spans have
left the store (it keeps the newest <code>TRACING_STREAM_MAX_SPANS</code> spans). With a collector configured the traces are there instead.</p>`
      : html`<p class="meta">Trace <code>${model.traceId}</code> · ${rows.length} spans · ${ms(model.durationMs)} ms from the first span's start to the last one's end</p>
<div class="card table-scroll"><table class="trace"><caption class="sr-only">Spans of the trace, each under its parent</caption>
<thead><tr><th scope="col">Span</th><th scope="col" class="num">Starts at (ms)</th><th scope="col" class="num">Duration (ms)</th><th scope="col">Time line</th></tr></thead>
<tbody>${rows.map(
          (row) =>
            html`<tr${row.span.failed ? html` class="failed"` : ''}><th scope="row">${raw('&nbsp;&nbsp;'.repeat(row.depth))}${spanLabel(row.span)}${row.span.failed ? ' (failed)' : ''}</th><td class="num">${ms((row.offsetPct / 100) * model.durationMs)}</td><td class="num">${ms(row.span.durationMs)}</td><td>${bar(row)}</td></tr>`,
        )}</tbody></table></div>`;
  return page(
    'Trace',
    context,
    html`<h1>Trace of a ${subject.label.toLowerCase()}</h1><p><a href="${subject.href}">Back to the ${subject.label.toLowerCase()}</a></p>${content}`,
  );
}
