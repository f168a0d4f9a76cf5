import { jobId } from './job-id';
import { isNonEmptyString, type JobRequest, type PayloadCheck } from './job-request';

/** The events an endpoint may subscribe to (docs/webhooks.md); `webhook.test` is sent on request only. */
export const WEBHOOK_EVENT_TYPES = ['domain.drift', 'domain.status_changed', 'gate.failed', 'gate.passed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * `webhook.deliver`: one delivery (one event to one endpoint), consumed by worker-dns. The job id is the
 * delivery's id, which is unique per endpoint and event, so a producer that runs twice (a redelivered
 * audit, the relay) adds the job once; retries are BullMQ attempts of that one job.
 */
export const WEBHOOK_DELIVER_JOB = {
  name: 'webhook.deliver',
  queues: ['webhook'],
  schemaVersion: 1,
} as const;

export interface WebhookDeliverJobPayload {
  schemaVersion: 1;
  deliveryId: string;
}

export interface WebhookDeliverJobResult {
  deliveryId: string;
  /** canceled: not sent (endpoint deleted or disabled); failed: a redelivered job of a delivery that already failed. */
  status: 'delivered' | 'canceled' | 'failed';
  httpStatus: number | null;
}

export function webhookDeliverJob(deliveryId: string, retry: { attempts: number; backoffMs: number }): JobRequest<'webhook.deliver', WebhookDeliverJobPayload> {
  return {
    queue: 'webhook',
    name: WEBHOOK_DELIVER_JOB.name,
    data: { schemaVersion: 1, deliveryId },
    jobId: jobId(WEBHOOK_DELIVER_JOB.name, deliveryId),
    retry,
  };
}

export const checkWebhookDeliverPayload: PayloadCheck = (data) => (isNonEmptyString(data.deliveryId) ? undefined : 'deliveryId must be a non-empty string');

/**
 * `webhook-relay.run`: repeated by the scheduler; queues deliveries that were stored with their event but
 * never queued (the producing process died between its commit and the enqueue). Outbox relay.
 */
export const WEBHOOK_RELAY_JOB = {
  name: 'webhook-relay.run',
  queues: ['scheduler'],
  schemaVersion: 1,
} as const;

export interface WebhookRelayJobPayload {
  schemaVersion: 1;
}

export interface WebhookRelayJobResult {
  queued: number;
}

/** Only the envelope: the job carries nothing but its schemaVersion. */
export const checkWebhookRelayPayload: PayloadCheck = () => undefined;
