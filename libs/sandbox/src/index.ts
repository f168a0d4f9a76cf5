export { compileEmail } from './compile-email';
export { COMPILE_LIMITS } from './compile-limits';
export type { CompileOptions } from './compile-limits';
export { disposeCompilers, warmCompilers } from './sandbox-lifecycle';
export { ALLOWED_JSX_IMPORTS } from './jsx/jsx-allowed-imports';
export { CompileError } from '@mailproof/engine/compile';
export type { CompileFormat, CompileResult, CompileWarning } from '@mailproof/engine/compile';
