/**
 * Mailproof's tracing facade. Code everywhere calls `tracer()`; with TRACING=off (the default) that is a
 * no-op object and no OpenTelemetry module is ever loaded (`initTracing` requires the SDK lazily). Span
 * attribute names are a closed list (`TraceAttribute`): ids, names, counts and outcomes only, never email
 * content, addresses or keys (docs/operations.md, "Tracing").
 */

/** The only attribute names a span may carry. */
export type TraceAttribute =
  | 'http.request.method'
  | 'http.route'
  | 'http.response.status_code'
  | 'messaging.system'
  | 'messaging.destination.name'
  | 'messaging.operation.type'
  | 'messaging.message.id'
  | 'mailproof.job.name'
  | 'mailproof.job.attempt'
  | 'mailproof.job.count'
  | 'mailproof.job.outcome'
  | 'mailproof.preview_id'
  | 'mailproof.gate_run_id'
  | 'mailproof.fix_run_id'
  | 'mailproof.format'
  | 'mailproof.clients'
  | 'mailproof.screenshots'
  | 'mailproof.links'
  | 'mailproof.outcome'
  | 'error.type';

export type TraceAttributes = Partial<Record<TraceAttribute, string | number | boolean>>;

export type TraceSpanKind = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

export interface TraceSpanOptions {
  kind?: TraceSpanKind;
  attributes?: TraceAttributes;
  /**
   * Where the span hangs: `'active'` (default) under the span of the current async context; a W3C
   * `traceparent` string under that remote span; `'root'` a new trace whatever is active (loops, the
   * scheduler's jobs).
   */
  parent?: 'active' | 'root' | string;
  /** Spans this one is linked to (W3C traceparent strings): a root span's cause, kept apart from its trace. */
  links?: ReadonlyArray<string>;
}

export interface TraceSpan {
  setAttribute(name: TraceAttribute, value: string | number | boolean): void;
  /** Names the span once its name is known (a request's route after routing). */
  rename(name: string): void;
  /** Marks the span failed with the error's class name only (an error message can quote the email). */
  fail(error: unknown): void;
  /** This span as a W3C traceparent (`00-<trace id>-<span id>-<flags>`); undefined for the no-op span. */
  traceparent(): string | undefined;
  end(): void;
}

/** Timings measured where no tracer runs (the analysis thread), recorded afterwards under a parent. */
export interface MeasuredSpan {
  name: string;
  /** Epoch milliseconds (`performance.timeOrigin + performance.now()`). */
  startMs: number;
  endMs: number;
}

export interface Tracer {
  readonly enabled: boolean;
  /** Starts a span, runs `fn` with it active, ends it when `fn` settles (failing it when `fn` throws). */
  inSpan<T>(name: string, options: TraceSpanOptions, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** Starts a span that is not made active (the API's request span, activated by `withSpan`). */
  startSpan(name: string, options?: TraceSpanOptions): TraceSpan;
  /** Runs `fn` with `span` as the active span. */
  withSpan<T>(span: TraceSpan, fn: () => T): T;
  /**
   * Makes `span` active in the listeners of `emitter` (a request's stream: its data and end events come
   * from the socket, outside the context the middleware set, and the request continues from there).
   */
  bindEmitter(span: TraceSpan, emitter: NodeJS.EventEmitter): void;
  /** The active span as a traceparent, if any. */
  activeTraceparent(): string | undefined;
  /** Records spans measured elsewhere as children of `parent` (a traceparent). */
  record(parent: string, spans: ReadonlyArray<MeasuredSpan>): void;
  /** Exports what is buffered. */
  flush(): Promise<void>;
  /** Flushes and stops; the tracer is a no-op afterwards. */
  shutdown(): Promise<void>;
}

const NOOP_SPAN: TraceSpan = {
  setAttribute: () => undefined,
  rename: () => undefined,
  fail: () => undefined,
  traceparent: () => undefined,
  end: () => undefined,
};

export const NOOP_TRACER: Tracer = {
  enabled: false,
  inSpan: (_name, _options, fn) => fn(NOOP_SPAN),
  startSpan: () => NOOP_SPAN,
  withSpan: (_span, fn) => fn(),
  bindEmitter: () => undefined,
  activeTraceparent: () => undefined,
  record: () => undefined,
  flush: async () => undefined,
  shutdown: async () => undefined,
};

/** Epoch milliseconds with sub-millisecond precision, comparable across threads. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
