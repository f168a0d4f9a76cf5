import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Cluster, Redis } from 'ioredis';
import { subjectKey, type StoredSpan, type TraceSubjectKind } from './trace-store';

const SUBJECT_ATTRIBUTES: ReadonlyArray<[string, TraceSubjectKind]> = [
  ['mailproof.preview_id', 'preview'],
  ['mailproof.gate_run_id', 'gate-run'],
];

/** A span as the embedded store keeps it: a few hundred bytes of JSON. */
export function storedSpan(span: ReadableSpan): StoredSpan {
  const start = hrTimeToMilliseconds(span.startTime);
  const attributes: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(span.attributes)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') attributes[name] = value;
  }
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: SpanKind[span.kind].toLowerCase(),
    service: String(span.resource.attributes['service.name'] ?? ''),
    startMs: start,
    durationMs: hrTimeToMilliseconds(span.duration),
    failed: span.status.code === SpanStatusCode.ERROR,
    attributes,
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
  };
}

/**
 * The embedded default (TRACING=on without OTEL_EXPORTER_OTLP_ENDPOINT): each span is one entry of a
 * Redis stream trimmed to TRACING_STREAM_MAX_SPANS (exact MAXLEN: one entry out per entry in once full),
 * so every process (API and workers) writes to the one place the dashboard's traces page reads. A span
 * naming a preview or gate run also records which trace that subject is in.
 */
export class RedisStreamSpanExporter implements SpanExporter {
  constructor(
    private readonly redis: Redis | Cluster,
    private readonly stream: { key: string; maxSpans: number; subjectTtlSeconds: number },
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const pipeline = this.redis.pipeline();
    for (const span of spans) {
      const stored = storedSpan(span);
      pipeline.xadd(this.stream.key, 'MAXLEN', String(this.stream.maxSpans), '*', 't', stored.traceId, 's', JSON.stringify(stored));
      for (const [attribute, kind] of SUBJECT_ATTRIBUTES) {
        const id = stored.attributes[attribute];
        if (typeof id === 'string') pipeline.set(subjectKey(this.stream.key, kind, id), stored.traceId, 'EX', this.stream.subjectTtlSeconds);
      }
    }
    pipeline.exec().then(
      () => done({ code: ExportResultCode.SUCCESS }),
      (error: unknown) => done({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  }

  async shutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  async forceFlush(): Promise<void> {}
}
