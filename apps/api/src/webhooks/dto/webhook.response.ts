import { ApiProperty } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '@mailproof/contracts';
import type { WebhookDeliveryListItem, WebhookEndpointEntity } from '@mailproof/persistence';

export class WebhookEndpointResponse {
  @ApiProperty() id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) events: string[];
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status: 'enabled' | 'disabled';
  @ApiProperty({ nullable: true, type: String, description: 'Why the endpoint was disabled (it kept failing).' }) disabledReason: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) disabledAt: string | null;
  @ApiProperty({ description: 'Deliveries in a row that failed on every attempt.' }) consecutiveFailures: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(endpoint: WebhookEndpointEntity): WebhookEndpointResponse {
    return {
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      status: endpoint.status,
      disabledReason: endpoint.disabledReason,
      disabledAt: endpoint.disabledAt?.toISOString() ?? null,
      consecutiveFailures: endpoint.consecutiveFailures,
      createdAt: endpoint.createdAt.toISOString(),
    };
  }
}

export class CreatedWebhookResponse extends WebhookEndpointResponse {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret (Standard Webhooks). Shown only in this response: store it now.',
  })
  secret: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookEndpointResponse] }) webhooks: WebhookEndpointResponse[];
  @ApiProperty({ description: 'Endpoints an account may hold (WEBHOOK_ENDPOINT_LIMIT).' }) limit: number;
}

export class WebhookDeliveryResponse {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The event id, sent as the webhook-id header.' }) eventId: string;
  @ApiProperty({ example: 'domain.drift' }) eventType: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'canceled'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ nullable: true, type: Number, description: 'HTTP status of the last answer.' }) lastStatus: number | null;
  @ApiProperty({ nullable: true, type: String }) lastError: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) lastAttemptAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) deliveredAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(item: WebhookDeliveryListItem): WebhookDeliveryResponse {
    return {
      ...item,
      lastAttemptAt: item.lastAttemptAt?.toISOString() ?? null,
      deliveredAt: item.deliveredAt?.toISOString() ?? null,
      createdAt: item.createdAt.toISOString(),
    };
  }
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) deliveries: WebhookDeliveryResponse[];
}

export class WebhookTestResponse {
  @ApiProperty({ description: 'The queued delivery; follow it in GET /api/webhooks/:id/deliveries.' }) deliveryId: string;
}
