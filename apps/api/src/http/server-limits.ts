import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import type { ProblemCode, ProblemDetails } from '@mailproof/contracts';
import { buildProblem, sendProblem } from '../problems/problem-response';

/** Headers must be complete within this (or the request timeout, if shorter). */
const HEADERS_TIMEOUT_MS = 20_000;

interface ClientErrorAnswer {
  status: number;
  code: ProblemCode;
  detail: string;
  errors?: ProblemDetails['errors'];
}

/** What Node's HTTP parser or its request timeout reported, as the problem the client gets. */
function answerFor(error: NodeJS.ErrnoException): ClientErrorAnswer {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', detail: 'The request did not arrive completely in time; the connection is closed.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'headers_too_large', detail: 'The request headers are larger than the server accepts (16 KB in all).' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'payload_too_large', detail: 'The chunk extensions of the body are too large.' };
    default:
      // The parser's own reason names bytes of the request; it stays in the server log.
      return {
        status: 400,
        code: 'malformed_request',
        detail: 'The request is not well-formed HTTP/1.1.',
        errors: [{ field: 'request', message: 'must be a well-formed HTTP/1.1 request (request line, headers and framing)' }],
      };
  }
}

/** A complete HTTP/1.1 response as bytes, written straight to the socket (no ServerResponse exists yet, or it sent nothing). */
export function rawProblemResponse(answer: ClientErrorAnswer): Buffer {
  const problem = buildProblem(answer.status, answer.code, answer.detail, answer.errors ? { errors: answer.errors } : {});
  const body = Buffer.from(JSON.stringify(problem), 'utf8');
  const head =
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\n` +
    'Content-Type: application/problem+json\r\n' +
    `Content-Length: ${body.length}\r\n` +
    'Connection: close\r\n\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/**
 * Socket-level limits of the API's HTTP server, set before it listens:
 *
 * - `requestTimeout`: the whole request (headers and body) within HTTP_REQUEST_TIMEOUT_MS, headers
 *   within 20 s of it. Node checks these every `connectionsCheckingInterval` (30 s by default, which
 *   let a stalled body live 90 s); the check runs here at a tenth of the timeout, 250 ms to 5 s.
 * - 'clientError': Node's own answers (408, 431, 400) have empty bodies; these are problem+json like
 *   every other error, written raw on the socket because no Express response exists at that point
 *   (or it has not sent anything), then the connection is closed.
 */
export function configureHttpServer(server: Server, requestTimeoutMs: number): void {
  // Node answers an HTTP/1.1 request without Host with an empty 400; requireHostHeader() answers it instead.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
  // Read by Node when the server starts listening; setting it before listen() is enough.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(5_000, Math.max(250, Math.floor(requestTimeoutMs / 10)));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null }) => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawProblemResponse(answerFor(error)));
    // end() flushes then closes; a peer that never reads must not keep the socket.
    setTimeout(() => socket.destroy(), 5_000).unref();
  });
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2): 400 malformed_request without one, as Node would, but with a problem body. */
export function requireHostHeader(req: Request, res: Response, next: NextFunction): void {
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    res.setHeader('Connection', 'close');
    return sendProblem(
      res,
      buildProblem(400, 'malformed_request', 'An HTTP/1.1 request needs a Host header.', {
        instance: req.path,
        errors: [{ field: 'request', message: 'must carry a Host header (HTTP/1.1)' }],
      }),
    );
  }
  next();
}
