import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from './metrics.service';

/** Times every request, labeled by the matched route pattern (never the raw path: ids would explode cardinality). */
export function httpMetricsMiddleware(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction) => {
    const stop = metrics.httpDuration.startTimer();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ method: req.method, route: String(route), status: String(res.statusCode) });
    });
    next();
  };
}
