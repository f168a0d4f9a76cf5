import type { CompileFormat } from './compile-formats';
import { sanitizeCompileMessage } from './sanitize-compile-message';

export interface CompileErrorDetails {
  message: string;
  format: CompileFormat;
  /** eml only: what is wrong with the message, a stable snake_case id (`not_a_message`, `too_many_parts`; docs/messages.md). */
  reason?: string;
  line?: number;
  column?: number;
}

/**
 * The only error a compile step throws for bad input. The API maps it to 422 `compile_failed`.
 * Its message is always sanitized and it carries no stack, so it is safe to show to the caller.
 */
export class CompileError extends Error {
  override readonly name = 'CompileError';
  readonly format: CompileFormat;
  readonly reason?: string;
  readonly line?: number;
  readonly column?: number;

  constructor(details: CompileErrorDetails) {
    super(sanitizeCompileMessage(details.message));
    this.format = details.format;
    if (details.reason) this.reason = details.reason;
    if (isPosition(details.line)) this.line = details.line;
    if (isPosition(details.column)) this.column = details.column;
    // The stack would name server files; callers only need the message and position.
    this.stack = `${this.name}: ${this.message}`;
    Object.setPrototypeOf(this, new.target.prototype);
  }

  toJSON(): CompileErrorDetails {
    const json: CompileErrorDetails = { message: this.message, format: this.format };
    if (this.reason !== undefined) json.reason = this.reason;
    if (this.line !== undefined) json.line = this.line;
    if (this.column !== undefined) json.column = this.column;
    return json;
  }
}

export function isCompileError(value: unknown): value is CompileError {
  return value instanceof CompileError;
}

function isPosition(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
