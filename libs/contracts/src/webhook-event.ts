/**
 * What a webhook event carries (docs/webhooks.md), as webhook_events.payload stores it (sealed: docs/privacy.md) and
 * as it is sent: `{ type, timestamp, data }`, `data` by type.
 */
import type { GateFailure } from '@mailproof/engine';

/** gate.failed and gate.passed: the verdict in short. A failure's href, src and url are the email's addresses. */
export interface GateWebhookEventData {
  runId: string;
  ref: string | null;
  previewId: string | null;
  passed: boolean;
  overallScore: number;
  worstClient: string | null;
  failures: GateFailure[];
}

export type MonitoredDomainStatusName = 'pending' | 'healthy' | 'degraded' | 'failing';

interface DomainWebhookEventBase {
  domainId: string;
  domain: string;
  auditId: string;
}

export interface DomainDriftWebhookEventData extends DomainWebhookEventBase {
  detectedAt: string;
  score: number | null;
  status: MonitoredDomainStatusName;
  changes: Array<{ kind: string; check: string; previous: unknown; current: unknown; message: string }>;
}

export interface DomainStatusChangedWebhookEventData extends DomainWebhookEventBase {
  previousStatus: MonitoredDomainStatusName;
  status: MonitoredDomainStatusName;
  score: number | null;
  checkedAt: string;
}

export interface WebhookTestEventData {
  endpointId: string;
  message: string;
}

/** An event's type with its data: what a producer records. */
export type WebhookEventBody =
  | { type: 'gate.failed' | 'gate.passed'; data: GateWebhookEventData }
  | { type: 'domain.drift'; data: DomainDriftWebhookEventData }
  | { type: 'domain.status_changed'; data: DomainStatusChangedWebhookEventData }
  | { type: 'webhook.test'; data: WebhookTestEventData };

/** The stored and sent payload: the body with the time it happened (ISO 8601). */
export type WebhookEventPayload = WebhookEventBody & { timestamp: string };
