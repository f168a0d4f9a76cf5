import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Link, type Span, type SpanContext } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { RedisStreamSpanExporter } from './redis-stream.exporter';
import type { TracingSettings } from './tracing-settings';
import type { MeasuredSpan, TraceAttributes, Tracer, TraceSpan, TraceSpanKind, TraceSpanOptions } from './tracer';

/** Loaded only when tracing is on (tracing.ts requires this file lazily). */

const KINDS: Record<TraceSpanKind, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function parseTraceparent(text: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(text);
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return undefined;
  return { traceId: match[1], spanId: match[2], traceFlags: parseInt(match[3], 16) & TraceFlags.SAMPLED, isRemote: true };
}

export function formatTraceparent(spanContext: SpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags & TraceFlags.SAMPLED}`;
}

function exporterFor(settings: TracingSettings): SpanExporter {
  if (settings.mode === 'otlp' && settings.otlp) {
    const url = `${settings.otlp.endpoint.replace(/\/+$/, '')}/v1/traces`;
    // Only the chosen encoding's exporter is loaded.
    if (settings.otlp.protocol === 'http/json') {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- one of two exporters, loaded when chosen
      const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
      return new OTLPTraceExporter({ url });
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- one of two exporters, loaded when chosen
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
    return new OTLPTraceExporter({ url });
  }
  return new RedisStreamSpanExporter(settings.openRedis(), settings.stream);
}

class OtelSpan implements TraceSpan {
  constructor(readonly span: Span) {}
  setAttribute(name: string, value: string | number | boolean): void {
    this.span.setAttribute(name, value);
  }
  rename(name: string): void {
    this.span.updateName(name);
  }
  fail(error: unknown): void {
    const type = error instanceof Error ? error.constructor.name : typeof error;
    this.span.setAttribute('error.type', type);
    // The status carries the class only: an error's message can quote the email (a compile error's source line).
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }
  traceparent(): string | undefined {
    return formatTraceparent(this.span.spanContext());
  }
  end(): void {
    this.span.end();
  }
}

class OtelTracer implements Tracer {
  readonly enabled = true;
  private readonly tracer;

  constructor(private readonly provider: BasicTracerProvider) {
    this.tracer = provider.getTracer('mailproof');
  }

  async inSpan<T>(name: string, options: TraceSpanOptions, fn: (span: TraceSpan) => Promise<T>): Promise<T> {
    const parent = this.parentContext(options.parent);
    const span = new OtelSpan(this.tracer.startSpan(name, this.spanOptions(options), parent));
    return context.with(trace.setSpan(parent, span.span), async () => {
      try {
        return await fn(span);
      } catch (error) {
        span.fail(error);
        throw error;
      } finally {
        span.end();
      }
    });
  }

  startSpan(name: string, options: TraceSpanOptions = {}): TraceSpan {
    return new OtelSpan(this.tracer.startSpan(name, this.spanOptions(options), this.parentContext(options.parent)));
  }

  withSpan<T>(span: TraceSpan, fn: () => T): T {
    if (!(span instanceof OtelSpan)) return fn();
    return context.with(trace.setSpan(context.active(), span.span), fn);
  }

  bindEmitter(span: TraceSpan, emitter: NodeJS.EventEmitter): void {
    if (span instanceof OtelSpan) context.bind(trace.setSpan(context.active(), span.span), emitter);
  }

  activeTraceparent(): string | undefined {
    const span = trace.getSpan(context.active());
    return span ? formatTraceparent(span.spanContext()) : undefined;
  }

  record(parent: string, spans: ReadonlyArray<MeasuredSpan>): void {
    const parentContext = this.parentContext(parent);
    for (const measured of spans) this.tracer.startSpan(measured.name, { startTime: measured.startMs }, parentContext).end(measured.endMs);
  }

  async flush(): Promise<void> {
    await this.provider.forceFlush();
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }

  private parentContext(parent: TraceSpanOptions['parent']): Context {
    if (parent === undefined || parent === 'active') return context.active();
    if (parent === 'root') return ROOT_CONTEXT;
    const remote = parseTraceparent(parent);
    return remote ? trace.setSpanContext(ROOT_CONTEXT, remote) : ROOT_CONTEXT;
  }

  private spanOptions(options: TraceSpanOptions): { kind: SpanKind; attributes?: TraceAttributes; links?: Link[]; root?: boolean } {
    const links = (options.links ?? []).map(parseTraceparent).filter((link): link is SpanContext => link !== undefined);
    return {
      kind: KINDS[options.kind ?? 'internal'],
      attributes: options.attributes,
      links: links.length > 0 ? links.map((linked) => ({ context: linked })) : undefined,
    };
  }
}

export function startOtelTracer(settings: TracingSettings): Tracer {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
    // A span's size is bounded whatever a caller does; traces are bounded by every job being a span or two.
    spanLimits: { attributeCountLimit: 32, attributeValueLengthLimit: 256, linkCountLimit: 8, eventCountLimit: 8 },
    spanProcessors: [new BatchSpanProcessor(exporterFor(settings), { scheduledDelayMillis: 1_000, maxQueueSize: 8_192, maxExportBatchSize: 512 })],
  });
  return new OtelTracer(provider);
}
