import type { ParsedMessage } from '../message/parse-message';
import type { SourcePosition } from './source-positions';

/** The input formats Mailproof compiles to HTML before analyzing (`eml` is parsed: its HTML part is the email). */
export const COMPILE_FORMATS = ['html', 'jsx', 'mjml', 'maizzle', 'eml'] as const;

export type CompileFormat = (typeof COMPILE_FORMATS)[number];

export function isCompileFormat(value: unknown): value is CompileFormat {
  return typeof value === 'string' && (COMPILE_FORMATS as readonly string[]).includes(value);
}

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
