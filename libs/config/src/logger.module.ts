import { randomUUID } from 'node:crypto';
import type { DynamicModule } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { MailproofConfig } from './mailproof.config';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,100}$/;

/** Accepts a caller's X-Request-Id when it looks sane, else makes one; echoes it on the response. */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * Structured JSON logs (pino). Inside a request every line carries `reqId`; keys and
 * authorization headers are redacted.
 */
export function createLoggerModule(config: MailproofConfig, app: string): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: {
      level: config.logging.level,
      // In the all-in-one process every app shares one root logger, so it is labeled as such.
      base: { app: process.env.MAILPROOF_PROCESS_NAME ?? app, pid: process.pid },
      genReqId: (req, res) => requestIdFor(req, res),
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'reqId' },
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') || req.url === '/metrics' },
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'], censor: '[redacted]' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  });
}
