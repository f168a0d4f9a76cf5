import type { NextFunction, Request, Response } from 'express';
import type { INestApplication } from '@nestjs/common';
import type { ProblemDetails } from '@mailproof/contracts';
import { buildProblem, sendProblem } from '../problems/problem-response';
import { parseJsonBody } from './json-body';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
/** The dashboard's HTML forms post url-encoded fields; everything else takes JSON only. */
const FORM_PATHS = /^\/app\//;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Answers before the body has been read. The connection is closed after the answer: the unread
 * rest of the body must not be parsed as the next request, nor hold the socket while it trickles in.
 */
function refuseUnread(req: Request, res: Response, problem: ProblemDetails): void {
  res.setHeader('Connection', 'close');
  sendProblem(res, { ...problem, instance: req.path });
}

function unsupported(detail: string): ProblemDetails {
  return buildProblem(415, 'unsupported_media_type', detail);
}

/**
 * Reads the body into one Buffer, at most `limitBytes`. Resolves null when the request ended without
 * an answer being possible (the client went away, or the server's request timeout fired: the
 * 'clientError' handler of http/server-limits.ts answers that one).
 */
function readBody(req: Request, limitBytes: number): Promise<Buffer | 'too_large' | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: Buffer | 'too_large' | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        req.pause();
        finish('too_large');
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks, received));
    const onGone = () => finish(null);
    const onClose = () => {
      if (!req.complete) finish(null);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onClose);
  });
}

/**
 * JSON body parsing with problem+json errors, in place of Nest's body-parser (disabled), so that every
 * parser failure is answered here with a stable code, never a 500 or a leaked parser message:
 *
 * - a `Content-Encoding` other than identity: 415 (bodies are accepted unencoded only);
 * - a body of another media type, or a charset other than UTF-8: 415;
 * - over the limit: 413 (from Content-Length before reading, or as the bytes arrive);
 * - bytes that are not UTF-8, text that is not JSON, or nesting deeper than 64 levels: 400 invalid_json;
 * - a NUL character in any string, or a `__proto__` / `constructor` / `prototype` key: 400
 *   validation_failed naming the field.
 *
 * A body that never finishes is ended by the server's request timeout (http/server-limits.ts).
 */
export function installJsonBodyParsing(app: INestApplication, limitBytes: number): void {
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      return refuseUnread(req, res, unsupported('Content-Encoding is not supported: send the body uncompressed (identity).'));
    }
    const contentType = req.headers['content-type'] ?? '';
    const json = JSON_TYPE.test(contentType);
    const form = !json && FORM_TYPE.test(contentType) && FORM_PATHS.test(req.path);
    if (!json && !form) {
      if (BODY_METHODS.has(req.method)) {
        return refuseUnread(req, res, unsupported('Send the body as JSON with Content-Type: application/json.'));
      }
      // A body on a method that takes none is ignored; do not keep the connection for the rest of it.
      res.setHeader('Connection', 'close');
      return next();
    }
    const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return refuseUnread(req, res, unsupported('Only UTF-8 JSON bodies are accepted.'));
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      return refuseUnread(req, res, buildProblem(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`));
    }
    readBody(req, limitBytes).then((bytes) => {
      if (bytes === null) return;
      if (bytes === 'too_large') {
        return refuseUnread(req, res, buildProblem(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`));
      }
      if (form) {
        const fields = parseFormBody(bytes);
        if (!fields)
          return sendProblem(
            res,
            buildProblem(400, 'validation_failed', 'The form body is not valid UTF-8.', {
              instance: req.path,
              errors: [{ field: 'body', message: 'must be UTF-8' }],
            }),
          );
        req.body = fields;
        return next();
      }
      const outcome = parseJsonBody(bytes);
      if (outcome.ok) {
        req.body = outcome.value;
        return next();
      }
      if (outcome.code === 'invalid_json') {
        return sendProblem(
          res,
          buildProblem(400, 'invalid_json', outcome.detail, { instance: req.path, errors: [{ field: 'body', message: outcome.message }] }),
        );
      }
      sendProblem(res, buildProblem(400, 'validation_failed', 'The request is invalid; see errors.', { instance: req.path, errors: outcome.errors }));
    }, next);
  });
}

/**
 * An url-encoded form as a prototype-free object: a field given once is a string, a repeated one
 * (checkboxes) an array. Null when the bytes are not UTF-8.
 */
export function parseFormBody(bytes: Buffer): Record<string, string | string[]> | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const clean = value.replace(/\u0000/g, '');
    const existing = fields[name];
    if (existing === undefined) fields[name] = clean;
    else fields[name] = Array.isArray(existing) ? [...existing, clean] : [existing, clean];
  }
  return fields;
}
