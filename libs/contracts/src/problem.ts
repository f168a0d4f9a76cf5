/** RFC 9457 problem details with Mailproof's stable snake_case `code`, the same on every endpoint (docs/errors.md). */
export const PROBLEM_CODES = [
  'validation_failed',
  'payload_too_large',
  'invalid_json',
  'malformed_request',
  'unsupported_media_type',
  'unauthorized',
  'plan_required',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'not_acceptable',
  'request_timeout',
  'conflict',
  'content_gone',
  'headers_too_large',
  'compile_failed',
  'url_declined',
  'url_unreachable',
  'rate_limited',
  'service_unavailable',
  'internal_error',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export interface FieldError {
  field: string;
  message: string;
}

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  instance?: string;
  requestId?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}
