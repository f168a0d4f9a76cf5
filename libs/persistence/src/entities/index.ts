import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { DomainAuditEntity } from './domain-audit.entity';
import { DriftEventEntity } from './drift-event.entity';
import { JobProbeEntity } from './job-probe.entity';
import { MonitoredDomainEntity } from './monitored-domain.entity';
import { UsageCounterEntity } from './usage-counter.entity';

export const ENTITIES = [JobProbeEntity, AccountEntity, ApiKeyEntity, UsageCounterEntity, MonitoredDomainEntity, DomainAuditEntity, DriftEventEntity];
export * from './account.entity';
export * from './api-key.entity';
export * from './job-probe.entity';
export * from './usage-counter.entity';
export * from './domain-audit.entity';
export * from './drift-event.entity';
export * from './monitored-domain.entity';
