import { HttpException } from '@nestjs/common';
import type { FieldError, ProblemCode } from '@mailproof/contracts';

/**
 * The HTTP status of each problem code (docs/errors.md): the one place a code becomes a status, so services
 * and guards say what went wrong (`not_found`, `conflict`) and never which status that is.
 */
export const PROBLEM_STATUS: Readonly<Record<ProblemCode, number>> = {
  validation_failed: 400,
  invalid_json: 400,
  malformed_request: 400,
  url_declined: 400,
  url_unreachable: 400,
  unauthorized: 401,
  plan_required: 403,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  content_gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  compile_failed: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
};

/** A problem with Mailproof's stable code; its status comes from PROBLEM_STATUS, and the global filter writes it as problem+json. */
export class ProblemException extends HttpException {
  constructor(
    readonly code: ProblemCode,
    detail: string,
    readonly extensions: { errors?: FieldError[]; headers?: Record<string, string>; [key: string]: unknown } = {},
  ) {
    super(detail, PROBLEM_STATUS[code]);
  }
}
