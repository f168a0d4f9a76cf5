export * from './queues';
export * from './problem';
export * from './jobs/job-map';
export * from './jobs/probe.job';
