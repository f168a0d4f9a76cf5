export * from './tool-inputs';
export * from './tool-outputs';
export * from './tool-catalog';
export * from './tool-results';
export * from './tool-errors';
export * from './prompts';
export * from './resources';
export { ArgumentValidator, advertisedSchema } from './argument-validation';
export { createMcpServer, type McpServerOptions, type ToolHandler, type ToolHandlers } from './mcp-server';
