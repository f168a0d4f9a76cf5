import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ProblemException } from '../problems/problem.exception';

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever the socket says. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || /^(::ffff:)?127\./.test(address));
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Who may scrape GET /metrics and read GET /metrics/queues (docs/operations.md, "Diagnostics and metrics access"):
 * - METRICS_TOKEN set: `Authorization: Bearer <METRICS_TOKEN>`, from anywhere; else 401.
 * - unset: a direct request from loopback only (no proxy header, so a reverse proxy on the same
 *   host does not open it to the world); everyone else gets 404, as if there were no such route.
 */
export function assertMetricsAccess(req: IncomingMessage, token: string | null, path = '/metrics'): void {
  if (token === null) {
    const direct = PROXY_HEADERS.every((name) => req.headers[name] === undefined);
    if (direct && isLoopback(req.socket.remoteAddress)) return;
    throw new ProblemException('not_found', `Cannot GET ${path}`);
  }
  const presented = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  // Compared as digests: constant time, whatever the lengths.
  if (presented === undefined || !timingSafeEqual(digest(presented), digest(token))) {
    throw new ProblemException('unauthorized', `GET ${path} needs Authorization: Bearer <METRICS_TOKEN>.`, {
      headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
    });
  }
}
