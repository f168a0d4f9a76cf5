import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Response } from 'express';
import { DASHBOARD_PATH } from '../auth/access.middleware';
import type { AuthenticatedRequest } from '../auth/request-identity';
import { buildProblem, sendProblem } from '../problems/problem-response';

const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** Reachable without a session: the sign-in form (it carries its own CSRF check) and static files. */
const PUBLIC_PATHS = /^\/app\/(sign-in|assets\/)/;

export function sameToken(expected: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Origin (or, without one, the Referer) must be this server when the browser sent either. */
function fromThisOrigin(req: AuthenticatedRequest): boolean {
  const source = req.headers.origin ?? req.headers.referer;
  if (!source) return true;
  try {
    return new URL(source).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * Runs after body parsing, before routing, for /app only: pages without a session redirect to the
 * sign-in form (other requests get 401), and every state-changing request needs the session's CSRF
 * token (form field `_csrf` or header `x-csrf-token`) and, when the browser names one, this
 * origin. SameSite=Lax already keeps the cookie off cross-site POSTs; the token is the second lock.
 */
export function dashboardGate(req: AuthenticatedRequest, res: Response, next: NextFunction): void {
  if (!DASHBOARD_PATH.test(req.path) || PUBLIC_PATHS.test(req.path)) return next();
  const session = req.dashboardSession;
  if (!session) {
    if (SAFE_METHODS.has(req.method)) {
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, '/app/sign-in');
      return;
    }
    return sendProblem(res, buildProblem(401, 'unauthorized', 'Sign in to the dashboard first.', { instance: req.path }));
  }
  if (SAFE_METHODS.has(req.method)) return next();
  const body = (req.body ?? {}) as Record<string, unknown>;
  const token = body._csrf ?? req.headers['x-csrf-token'];
  if (!fromThisOrigin(req) || !sameToken(session.csrfToken, token)) {
    return sendProblem(
      res,
      buildProblem(403, 'forbidden', 'This form is missing its CSRF token or comes from another site; reload the page and try again.', { instance: req.path }),
    );
  }
  next();
}
