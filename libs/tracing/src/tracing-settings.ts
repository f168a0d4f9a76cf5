import type { Cluster, Redis } from 'ioredis';

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
