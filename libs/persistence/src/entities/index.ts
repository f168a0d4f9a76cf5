import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { JobProbeEntity } from './job-probe.entity';
import { UsageCounterEntity } from './usage-counter.entity';

export const ENTITIES = [JobProbeEntity, AccountEntity, ApiKeyEntity, UsageCounterEntity];
export * from './account.entity';
export * from './api-key.entity';
export * from './job-probe.entity';
export * from './usage-counter.entity';
