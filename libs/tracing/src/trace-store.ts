import type { Cluster, Redis } from 'ioredis';

/** One span in the embedded store (RedisStreamSpanExporter writes it, the dashboard reads it). */
export interface StoredSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: string;
  service: string;
  /** Epoch milliseconds. */
  startMs: number;
  durationMs: number;
  failed: boolean;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
}

export type TraceSubjectKind = 'preview' | 'gate-run';

/** The key naming the trace a preview or gate run is in. */
export function subjectKey(streamKey: string, kind: TraceSubjectKind, id: string): string {
  return `${streamKey}:subject:${kind}:${id}`;
}

/** The embedded store's stream key under a queue prefix (on a Redis Cluster the prefix is a hash tag). */
export function traceStreamKey(prefix: string): string {
  return `${prefix}:traces`;
}

const PAGE = 2_000;

/**
 * Reads the embedded store: which trace a subject is in, and a trace's spans (the stream is scanned from
 * the newest entry back, a page at a time, comparing only the entries' trace id field; at the default cap
 * of 20,000 spans that is ten round trips at most).
 */
export class TraceStore {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly streamKey: string,
  ) {}

  async traceIdOf(kind: TraceSubjectKind, id: string): Promise<string | null> {
    return this.redis.get(subjectKey(this.streamKey, kind, id));
  }

  async spansOf(traceId: string): Promise<StoredSpan[]> {
    const spans: StoredSpan[] = [];
    let end = '+';
    for (;;) {
      const page = await this.redis.xrevrange(this.streamKey, end, '-', 'COUNT', PAGE);
      for (const [, fields] of page) {
        if (fields[1] === traceId) spans.push(JSON.parse(fields[3]) as StoredSpan);
      }
      if (page.length < PAGE) break;
      end = `(${page[page.length - 1][0]}`;
    }
    return spans.sort((a, b) => a.startMs - b.startMs);
  }
}

export interface WaterfallRow {
  span: StoredSpan;
  depth: number;
  /** Where the bar starts and how wide it is, in percent of the trace's duration. */
  offsetPct: number;
  widthPct: number;
}

/** A trace's spans in tree order (each span after its parent), with bars relative to the whole trace. */
export function waterfall(spans: ReadonlyArray<StoredSpan>): { rows: WaterfallRow[]; durationMs: number } {
  if (spans.length === 0) return { rows: [], durationMs: 0 };
  const start = Math.min(...spans.map((span) => span.startMs));
  const end = Math.max(...spans.map((span) => span.startMs + span.durationMs));
  const durationMs = Math.max(end - start, 0.001);
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | undefined, StoredSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const rows: WaterfallRow[] = [];
  const visit = (parent: string | undefined, depth: number) => {
    // Siblings by start, and one that started in the same instant and ended first before the other (a compile of
    // plain HTML takes no time, and the analysis starts when it ends).
    for (const span of (children.get(parent) ?? []).sort((a, b) => a.startMs - b.startMs || a.durationMs - b.durationMs)) {
      rows.push({ span, depth, offsetPct: ((span.startMs - start) / durationMs) * 100, widthPct: Math.max((span.durationMs / durationMs) * 100, 0.2) });
      visit(span.spanId, depth + 1);
    }
  };
  visit(undefined, 0);
  return { rows, durationMs };
}
