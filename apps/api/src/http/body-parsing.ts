import { json, type NextFunction, type Request, type Response } from 'express';
import type { INestApplication } from '@nestjs/common';
import { buildProblem, sendProblem } from '../problems/problem-response';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** 400 invalid_json. Like every 400 it lists what was wrong (decisions.md §3); the parser's own message stays out (it quotes the body). */
function sendInvalidJson(req: Request, res: Response, detail: string, bodyMessage: string): void {
  sendProblem(res, buildProblem(400, 'invalid_json', detail, { instance: req.path, errors: [{ field: 'body', message: bodyMessage }] }));
}

/**
 * JSON body parsing with problem+json errors. Nest's own parser is disabled so that every
 * parser failure (bad JSON, too large, wrong charset) is answered here with a stable code
 * instead of Express's default HTML or a leaked parser message.
 */
export function installJsonBodyParsing(app: INestApplication, limitBytes: number): void {
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (BODY_METHODS.has(req.method) && hasBody(req) && !JSON_TYPE.test(req.headers['content-type'] ?? '')) {
      return sendProblem(
        res,
        buildProblem(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.', {
          instance: req.path,
        }),
      );
    }
    next();
  });
  app.use(json({ limit: limitBytes, strict: true, type: (req) => JSON_TYPE.test(req.headers['content-type'] ?? '') }));
  app.use((error: Error & { type?: string; status?: number }, req: Request, res: Response, next: NextFunction) => {
    switch (error.type) {
      case 'entity.too.large':
        return sendProblem(
          res,
          buildProblem(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`, { instance: req.path }),
        );
      case 'entity.parse.failed':
        return sendInvalidJson(req, res, 'The request body is not valid JSON.', 'must be one valid JSON value (the parser stopped before its end)');
      case 'charset.unsupported':
      case 'encoding.unsupported':
        return sendProblem(
          res,
          buildProblem(415, 'unsupported_media_type', 'Only UTF-8 JSON bodies without content encoding are accepted.', {
            instance: req.path,
          }),
        );
      case 'request.aborted':
      case 'request.size.invalid':
        return sendInvalidJson(req, res, 'The request body was incomplete.', 'ended before its declared length');
      default:
        return next(error);
    }
  });
}
