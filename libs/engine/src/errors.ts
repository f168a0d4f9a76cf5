/** Base class of every error the engine throws on purpose (never for findings in an email). */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export type EngineLimitCode = 'input_too_large' | 'nesting_too_deep' | 'too_many_css_rules';

/** The input exceeds one of the documented bounds in `limits.ts`; callers map it to HTTP 413/400. */
export class EngineLimitError extends EngineError {
  constructor(
    readonly limitCode: EngineLimitCode,
    message: string,
    readonly limit: number,
    readonly actual: number,
  ) {
    super(message, limitCode);
  }
}
