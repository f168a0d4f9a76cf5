import type { Cluster, Redis } from 'ioredis';
import { NOOP_TRACER, type Tracer } from './tracer';

/** How a process traces (TRACING, OTEL_EXPORTER_OTLP_*, TRACING_* in docs/configuration.md). */
export interface TracingSettings {
  /** off: no spans and no OpenTelemetry module loaded; embedded: spans to a capped Redis stream; otlp: to a collector. */
  mode: 'off' | 'embedded' | 'otlp';
  /** `service.name` of the spans this process makes. */
  serviceName: string;
  /** The share of new traces kept (1: all); a trace continued from a job follows its parent's decision. */
  sampleRatio: number;
  /** The collector's base URL (`/v1/traces` is appended) and the encoding. */
  otlp: { endpoint: string; protocol: 'http/protobuf' | 'http/json' } | null;
  /** The embedded store: the stream's key and how many spans it keeps. */
  stream: { key: string; maxSpans: number; subjectTtlSeconds: number };
  /** A Redis client of its own for the embedded store (closed on shutdown). */
  openRedis: () => Redis | Cluster;
}

let current: Tracer = NOOP_TRACER;

/** The process's tracer: the no-op one until `initTracing` started the SDK. */
export function tracer(): Tracer {
  return current;
}

/**
 * Starts tracing for this process, once: later calls (several apps in the all-in-one process) keep the
 * first tracer. With mode `off` nothing is loaded.
 */
export function initTracing(settings: TracingSettings): Tracer {
  if (current.enabled || settings.mode === 'off') return current;
  // Required here, not imported: with tracing off no OpenTelemetry module enters the process.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on
  const sdk = require('./otel-tracer') as typeof import('./otel-tracer');
  current = sdk.startOtelTracer(settings);
  return current;
}

/** Flushes and stops the tracer (process shutdown). */
export async function shutdownTracing(): Promise<void> {
  const stopping = current;
  current = NOOP_TRACER;
  await stopping.shutdown();
}
