export * from './accounts.repository';
export * from './api-key-secret';
export * from './account-data.repository';
export * from './account-tables';
