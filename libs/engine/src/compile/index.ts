export { CompileError, isCompileError } from './compile-error';
export type { CompileErrorDetails } from './compile-error';
export { COMPILE_FORMATS, isCompileFormat } from './compile-format';
export type { CompileFormat, CompileResult, CompileWarning } from './compile-format';
export { MAX_COMPILE_MESSAGE_LENGTH, sanitizeCompileMessage } from './sanitize-compile-message';
export {
  SOURCE_FILES_LIMITS,
  checkSourceFiles,
  findSourceFile,
  joinSourcePath,
  normalizeSourceFiles,
  normalizeSourcePath,
  sourceDirectory,
  utf8Length,
} from './source-files';
export type { SourceFiles, SourceFilesProblem } from './source-files';
export { placeFindingsInSource, sourcePositionAt } from './source-positions';
export type { SourcePosition } from './source-positions';
