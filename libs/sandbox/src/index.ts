export { compileEmail } from './compile-email';
export { COMPILE_LIMITS } from './compile-limits';
export type { CompileOptions } from './compile-limits';
export { configureCompilers, disposeCompilers, warmCompilers } from './sandbox-lifecycle';
export { sharedCompileProcessPool } from './process/shared-compile-process-pool';
export type { CompileProcessPoolOptions } from './process/compile-process-pool';
export { ALLOWED_JSX_IMPORTS } from './jsx/jsx-allowed-imports';
export { CompileError } from '@mailproof/engine/compile';
export type { CompileFormat, CompileResult, CompileWarning } from '@mailproof/engine/compile';
