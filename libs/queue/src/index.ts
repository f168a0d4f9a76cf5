export * from './account-redis-state';
export * from './await-job';
export * from './job-defaults';
// Job ids are built by the payload builders in contracts; re-exported for callers that still need one.
export * from './job.producer';
export * from './probe.handler';
export * from './queue-events.registry';
export * from './queue.module';
export * from './redis-connection';
export * from './worker-app';
export * from './consumer.host';
export * from './job-handler';
export * from './repeating-job';
export * from './api-queue.module';
export * from './deadline';
export * from './failure-log';
export * from './queue-unavailable.error';
export { startTracing } from './job-tracing';
export * from './queue-redis-client';
