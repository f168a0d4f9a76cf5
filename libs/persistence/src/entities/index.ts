import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { DomainAuditEntity } from './domain-audit.entity';
import { DriftEventEntity } from './drift-event.entity';
import { FixRunEntity } from './fix-run.entity';
import { JobProbeEntity } from './job-probe.entity';
import { MonitoredDomainEntity } from './monitored-domain.entity';
import { PreviewEntity } from './preview.entity';
import { GateBaselineEntity } from './gate-baseline.entity';
import { GateRunEntity } from './gate-run.entity';
import { ShareEntity } from './share.entity';
import { UsageCounterEntity } from './usage-counter.entity';
import { WebhookDeliveryEntity, WebhookEndpointEntity, WebhookEventEntity } from './webhook.entity';

export const ENTITIES = [
  JobProbeEntity,
  AccountEntity,
  ApiKeyEntity,
  UsageCounterEntity,
  MonitoredDomainEntity,
  DomainAuditEntity,
  DriftEventEntity,
  PreviewEntity,
  FixRunEntity,
  ShareEntity,
  GateRunEntity,
  GateBaselineEntity,
  WebhookEndpointEntity,
  WebhookEventEntity,
  WebhookDeliveryEntity,
];
export * from './account.entity';
export * from './api-key.entity';
export * from './job-probe.entity';
export * from './usage-counter.entity';
export * from './domain-audit.entity';
export * from './drift-event.entity';
export * from './monitored-domain.entity';
export * from './preview.entity';
export * from './fix-run.entity';
export * from './share.entity';
export * from './gate-run.entity';
export * from './gate-baseline.entity';
export * from './webhook.entity';
