export * from './queues';
export * from './problem';
export * from './jobs/job-map';
export * from './jobs/probe.job';
export * from './jobs/dns-audit.job';
export * from './jobs/domain-sweep.job';
export * from './jobs/preview.job';
export * from './jobs/preview-cleanup.job';
