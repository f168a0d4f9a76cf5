import type { ParsedMessage } from '../parse/parsed-message';
import type { SourcePosition } from './source-positions';

export { COMPILE_FORMATS, isCompileFormat, type CompileFormat } from './compile-formats';

/** Something the compiler tolerated but the sender should know about (1-based positions). */
export interface CompileWarning {
  message: string;
  line?: number;
  column?: number;
}

export interface CompileResult {
  html: string;
  warnings: CompileWarning[];
  /** jsx, mjml and maizzle: where the compiled elements came from in the source (source-positions.ts), sorted by start. */
  sourcePositions?: SourcePosition[];
  /** eml: the parsed message; `html` is its decoded HTML part. */
  message?: ParsedMessage;
}
