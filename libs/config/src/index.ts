export * from './config.error';
export * from './config.module';
export * from './data-keys';
export * from './environment.schema';
export * from './load-config';
export * from './mailproof.config';
export * from './logger.module';
export * from './secret-settings';
