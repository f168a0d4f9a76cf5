import type { QueueName } from '../queues';

/**
 * One job ready to enqueue, as a payload builder returns it: the queue, the job name, its payload and
 * its deterministic id. Producers pass it to `JobProducer.enqueue()` / `enqueueBulk()` unchanged, so
 * no producer builds a payload or a job id by hand.
 */
export interface JobRequest<N extends string = string, P = unknown> {
  queue: QueueName;
  name: N;
  data: P;
  jobId: string;
  /** BullMQ priority (lower runs first; absent runs before every prioritized job). */
  priority?: number;
  /** This job's retry schedule instead of the defaults (3 attempts from 1 s): attempts, and the first backoff, doubled each time. */
  retry?: { attempts: number; backoffMs: number };
  /**
   * Added on its own (not as a step of a chain), the job is removed from Redis when it completes instead of kept
   * for an hour: for a job nobody reads once done (its waiter hears the event and reads PostgreSQL). Saves the
   * commands BullMQ spends keeping and trimming finished jobs (docs/benchmarks.md, "The preview's overhead").
   */
  removeWhenComplete?: true;
}

/** A reason the data is not a valid payload of the job, or undefined when it is. */
export type PayloadCheck = (data: Record<string, unknown>) => string | undefined;

/** The shared shape of every payload: an object with the job's schemaVersion. */
export function checkPayloadEnvelope(data: unknown, schemaVersion: number): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'the payload is not an object';
  const version = (data as { schemaVersion?: unknown }).schemaVersion;
  if (version !== schemaVersion) return `unsupported schemaVersion ${String(version)} (expected ${schemaVersion})`;
  return undefined;
}

export const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 200;
