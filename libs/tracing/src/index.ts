// Nothing here loads OpenTelemetry: the SDK is required by initTracing() only when tracing is on.
export * from './tracer';
export * from './tracing';
export * from './trace-store';
