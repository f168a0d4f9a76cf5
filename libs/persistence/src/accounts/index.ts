export * from './accounts.repository';
export * from './api-key-secret';
