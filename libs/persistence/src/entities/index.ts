import { JobProbeEntity } from './job-probe.entity';

export const ENTITIES = [JobProbeEntity];
export { JobProbeEntity };
