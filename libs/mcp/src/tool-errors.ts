import type { FieldError } from '@mailproof/contracts';

/**
 * A tool ran and could not do what was asked for a reason the assistant can act on (the email did not
 * compile, the URL was declined, the plan does not include the tool...): answered as a tool result with
 * `isError` and the problem's code and message, never as a protocol error.
 */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Extra fields of the problem worth passing on (line and column of a compile error, a run id...). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

/** The arguments are wrong in a way only the handler could tell (exactly one of html and url...): a protocol error naming the fields. */
export class InvalidToolArguments extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((error) => `${error.field}: ${error.message}`).join('; '));
    this.name = 'InvalidToolArguments';
  }
}

/**
 * A JSON-RPC error to answer instead of a result (unknown tool, bad arguments). The SDK's McpError
 * would put "MCP error -32602:" into the message itself, and clients add that prefix again.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}
