import { NOOP_TRACER, type Tracer } from './tracer';
import type { TracingSettings } from './tracing-settings';

export type { TracingSettings } from './tracing-settings';

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
