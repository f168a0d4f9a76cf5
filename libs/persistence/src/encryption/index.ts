export * from './data-key.repository';
export * from './data-keyring';
export * from './encryption.errors';
export * from './envelope';
export * from './row-cipher';
export * from './seal-existing';
