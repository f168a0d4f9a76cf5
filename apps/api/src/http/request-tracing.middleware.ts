import type { NextFunction, Request, Response } from 'express';
import { tracer } from '@mailproof/tracing';

const UNTRACED = /^\/(health|metrics)(\/|$)/;

/**
 * The request span every trace of a request starts from (installed only with TRACING=on). It is named by
 * the matched route pattern, never the raw path (a share link's path is its secret), once the answer is
 * sent; incoming `traceparent` headers are not trusted, so each request starts a trace of its own. Probes
 * and scrapes (`/health/*`, `/metrics*`) make no traces: every few seconds per pod, they would crowd the
 * embedded store out of the requests worth reading.
 */
export function requestTracingMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (UNTRACED.test(req.path)) return next();
    const tracing = tracer();
    const span = tracing.startSpan(req.method, { kind: 'server', parent: 'root', attributes: { 'http.request.method': req.method } });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const route = (req.route as { path?: string } | undefined)?.path;
      if (route) {
        span.setAttribute('http.route', String(route));
        span.rename(`${req.method} ${String(route)}`);
      }
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.fail(new Error('server error'));
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    tracing.bindEmitter(span, req);
    tracing.withSpan(span, next);
  };
}
