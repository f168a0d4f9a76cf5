import type { WebhookEventPayload } from '@mailproof/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { PG_SAFE_TEXT } from '../pg-safe-text';

export type WebhookEndpointStatus = 'enabled' | 'disabled';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed' | 'canceled';

/** Where an account wants its events signed and sent (docs/webhooks.md). */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  url: string;

  @Column({ type: 'text', array: true, transformer: PG_SAFE_TEXT })
  events: string[];

  /** `whsec_` + base64 of 32 random bytes; needed in clear to sign, shown to the client once. */
  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  secret: string;

  @Column({ type: 'text', default: 'enabled' })
  status: WebhookEndpointStatus;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  disabledReason: string | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** Deliveries in a row that failed on every attempt; a success resets it. */
  @Column({ name: 'consecutive_failures', type: 'integer', default: 0 })
  consecutiveFailures: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** Something that happened, once: the body every endpoint that wants it receives. */
@Entity({ name: 'webhook_events' })
export class WebhookEventEntity {
  /** `msg_…`: the `webhook-id` header, the same on every attempt and every endpoint. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ name: 'source_key', type: 'text', transformer: PG_SAFE_TEXT })
  sourceKey: string;

  /** `{ type, timestamp, data }`, sent as is; stored sealed (docs/privacy.md), opened by WebhookRepository. */
  @Column({ type: 'jsonb', transformer: PG_SAFE_TEXT })
  payload: WebhookEventPayload;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** One event to one endpoint: its attempts, last answer and outcome. */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  @Column({ name: 'event_id', type: 'text' })
  eventId: string;

  @Column({ type: 'text', default: 'pending' })
  status: WebhookDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_status', type: 'integer', nullable: true })
  lastStatus: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  lastError: string | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
