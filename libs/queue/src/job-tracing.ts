import type { Job, JobsOptions } from 'bullmq';
import { createRedisClient, redisOptionsFromUrl } from './redis-connection';
import { initTracing, traceStreamKey, tracer, type TraceAttributes, type TraceSpanOptions } from '@mailproof/tracing';
import type { MailproofConfig } from '@mailproof/config';

/** How long the embedded store remembers which trace a preview or gate run is in. */
const SUBJECT_TTL_SECONDS = 7 * 86_400;

/**
 * Starts this process's tracer from the configuration (once per process; TRACING=off loads nothing), and
 * answers the line the app logs at start: where its spans go, and why (an endpoint alone turns export on).
 */
export function startTracing(config: MailproofConfig, serviceName: string): string {
  const line = tracingStartLine(config);
  if (config.tracing.mode === 'off') return line;
  initTracing({
    mode: config.tracing.mode,
    serviceName,
    sampleRatio: config.tracing.sampleRatio,
    otlp: config.tracing.otlp,
    stream: { key: traceStreamKey(config.queue.prefix), maxSpans: config.tracing.streamMaxSpans, subjectTtlSeconds: SUBJECT_TTL_SECONDS },
    openRedis: () => createRedisClient(config.redis, redisOptionsFromUrl(config.redis.url)),
  });
  return line;
}

function tracingStartLine(config: MailproofConfig): string {
  const { mode, otlp } = config.tracing;
  if (mode === 'otlp') return `tracing: spans to ${otlp?.endpoint} over OTLP/HTTP (${otlp?.protocol})`;
  if (mode === 'embedded') return 'tracing: spans to the embedded store (a Redis stream; no OTEL_EXPORTER_OTLP_ENDPOINT)';
  return otlp ? `tracing: off (TRACING=off), so OTEL_EXPORTER_OTLP_ENDPOINT ${otlp.endpoint} gets nothing` : 'tracing: off';
}

/**
 * A job's trace context travels in BullMQ's own field for it, `opts.telemetry.metadata` (stored beside the
 * job, not in its payload): the producing span's traceparent. A job queued in a sweep (`enqueueBulk`)
 * carries `link;<traceparent>`: its span starts a trace of its own linked to the sweep, so a sweep of
 * thousands of jobs is not one enormous trace.
 */
export function withTraceContext(options: JobsOptions, mode: 'parent' | 'link'): JobsOptions {
  const traceparent = tracer().activeTraceparent();
  if (!traceparent) return options;
  return { ...options, telemetry: { metadata: mode === 'link' ? `link;${traceparent}` : traceparent } };
}

/**
 * Where a job attempt's span hangs. The first attempt of a job queued inside a trace joins it (the request
 * that queued it); later attempts, sweep jobs and jobs of job schedulers (which repeat for the worker's
 * lifetime) start traces of their own, linked to their cause.
 */
export function jobSpanOptions(job: Job, queue: string): TraceSpanOptions {
  const metadata = job.opts.telemetry?.metadata;
  const attributes: TraceAttributes = {
    'messaging.system': 'bullmq',
    'messaging.destination.name': queue,
    'messaging.operation.type': 'process',
    'messaging.message.id': String(job.id),
    'mailproof.job.name': job.name,
    'mailproof.job.attempt': job.attemptsMade + 1,
    ...subjectAttributes(job.data),
  };
  if (!metadata || job.repeatJobKey) return { kind: 'consumer', parent: 'root', attributes };
  const link = metadata.startsWith('link;');
  const traceparent = link ? metadata.slice(5) : metadata;
  if (link || job.attemptsMade > 0) return { kind: 'consumer', parent: 'root', links: [traceparent], attributes };
  return { kind: 'consumer', parent: traceparent, attributes };
}

/** The ids a job's payload names, so a trace can be found from its preview or gate run. */
function subjectAttributes(data: unknown): TraceAttributes {
  if (typeof data !== 'object' || data === null) return {};
  const { previewId, runId } = data as { previewId?: unknown; runId?: unknown };
  const attributes: TraceAttributes = {};
  if (typeof previewId === 'string') attributes['mailproof.preview_id'] = previewId;
  if (typeof runId === 'string') attributes['mailproof.gate_run_id'] = runId;
  return attributes;
}
