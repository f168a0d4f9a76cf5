export * from './accounts';
export * from './data-source-options';
export * from './entities';
export * from './migrations';
export * from './persistence.module';
export * from './repositories/job-probe.repository';
export * from './run-migrations';
