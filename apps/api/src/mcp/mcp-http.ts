import type { Request, Response } from 'express';
import type { ProblemCode } from '@mailproof/contracts';
import { buildProblem, sendProblem } from '../problems/problem-response';

/** The Express request as the SDK's web-standard transport takes it; the body goes beside it, already parsed. */
export function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  // The body was read and parsed by the API's JSON parser; a web Request of a POST would want it again.
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new globalThis.Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, { method: req.method, headers });
}

const CODE_BY_STATUS: Record<number, ProblemCode> = {
  400: 'validation_failed',
  404: 'not_found',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * Sends the transport's answer. A JSON-RPC answer (200, or 202 for a notification) goes as it is; an
 * HTTP-level refusal (no `Accept` for JSON, a body that is no JSON-RPC message, an unsupported
 * protocol version...) becomes problem+json like every other error of the API, with the JSON-RPC
 * error code beside it as `jsonrpcCode`. The SDK's clients read a 4xx by its status, whatever the body.
 */
export async function sendWebResponse(req: Request, res: Response, answer: globalThis.Response): Promise<void> {
  const text = await answer.text();
  if (answer.status < 400) {
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.status(answer.status).send(text);
    return;
  }
  const error = jsonRpcErrorOf(text);
  if (answer.status >= 500) {
    sendProblem(res, buildProblem(500, 'internal_error', 'The MCP request could not be handled.', { instance: req.path }));
    return;
  }
  const message = error?.message ?? 'The MCP request was refused.';
  sendProblem(
    res,
    buildProblem(answer.status, CODE_BY_STATUS[answer.status] ?? 'validation_failed', message, {
      instance: req.path,
      ...(error?.code !== undefined ? { jsonrpcCode: error.code } : {}),
      ...(answer.status === 400 ? { errors: [{ field: 'body', message }] } : {}),
    }),
  );
}

/** A refusal of a JSON-RPC batch, in the same shape. */
export function sendBatchRefused(req: Request, res: Response): void {
  const message = 'JSON-RPC batches are not supported: send one message per request (MCP removed batching in protocol version 2025-06-18).';
  sendProblem(res, buildProblem(400, 'validation_failed', message, { instance: req.path, jsonrpcCode: -32600, errors: [{ field: 'body', message }] }));
}

function jsonRpcErrorOf(text: string): { code?: number; message?: string } | null {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    const code = typeof body.error?.code === 'number' ? body.error.code : undefined;
    // Only the SDK's fixed sentence: its optional `data` may carry a parser's words, never sent.
    const message = typeof body.error?.message === 'string' ? body.error.message : undefined;
    return { code, message };
  } catch {
    return null;
  }
}
