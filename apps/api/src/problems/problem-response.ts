import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import type { ProblemCode, ProblemDetails } from '@mailproof/contracts';

const DEFAULT_CODES: Record<number, ProblemCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'compile_failed',
  429: 'rate_limited',
  503: 'service_unavailable',
};

export function defaultCodeFor(status: number): ProblemCode {
  return DEFAULT_CODES[status] ?? (status >= 500 ? 'internal_error' : 'validation_failed');
}

/** Builds an RFC 9457 body. `type` points at the error catalog in docs/errors.md. */
export function buildProblem(status: number, code: ProblemCode, detail: string, extra: Partial<ProblemDetails> = {}): ProblemDetails {
  return {
    type: `https://mailproof.dev/problems/${code.replace(/_/g, '-')}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}

export function sendProblem(res: Response, problem: ProblemDetails, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // A Buffer body keeps the media type exactly as RFC 9457 registers it (Express appends "; charset" to strings).
  res.status(problem.status).setHeader('Content-Type', 'application/problem+json');
  res.send(Buffer.from(JSON.stringify(problem), 'utf8'));
}
