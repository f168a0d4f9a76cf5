import { EngineInputError, EngineLimitError } from '@mailproof/engine';
import { CompileError } from '@mailproof/engine/compile';

/**
 * Exit codes of every `mailproof` command (docs/cli.md). 1 and 2 carry meaning for `lint` in CI,
 * so a mistyped option gets its own code instead of passing for "the email has errors".
 */
export const EXIT_CODES = {
  ok: 0,
  /** The command ran into a problem with an input (unreadable file, compile error, limit) or found errors. */
  failure: 1,
  /** `lint --fail-on-warning`: warnings but no errors. */
  warnings: 2,
  /** The command line itself is wrong: unknown option or value, unknown client id, missing argument. */
  usage: 3,
} as const;

/** What went wrong, for `--json` readers: `read` (file or stdin), `compile`, `limit`, `usage` or `other`. */
export type CliErrorKind = 'read' | 'compile' | 'limit' | 'usage' | 'other';

/** An error whose message is written for the person at the terminal; main.ts prints it without a stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly kind: CliErrorKind = 'other',
    readonly exitCode: number = EXIT_CODES.failure,
    /** Where in the source a compile error points (1-based), when the compiler knows. */
    readonly position: { line?: number; column?: number } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  toJSON(): { kind: CliErrorKind; message: string; line?: number; column?: number } {
    return { kind: this.kind, message: this.message, ...this.position };
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 'usage', EXIT_CODES.usage);
  }
}

/**
 * Turns what compiling or analyzing one email may throw into a message about that email.
 * `label` names the input (a path, or "stdin"). Anything unexpected keeps its message only.
 */
export function describeInputError(label: string, error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof CompileError) {
    const position = error.line === undefined ? '' : ` at line ${error.line}${error.column === undefined ? '' : `, column ${error.column}`}`;
    const where = { ...(error.line === undefined ? {} : { line: error.line }), ...(error.column === undefined ? {} : { column: error.column }) };
    return new CliError(`${label}: cannot compile ${error.format}${position}: ${error.message}`, 'compile', EXIT_CODES.failure, where);
  }
  if (error instanceof EngineLimitError) return new CliError(`${label}: too large or too deep to analyze: ${error.message}`, 'limit');
  if (error instanceof EngineInputError) return new UsageError(error.message);
  return new CliError(`${label}: ${error instanceof Error ? error.message : String(error)}`);
}
