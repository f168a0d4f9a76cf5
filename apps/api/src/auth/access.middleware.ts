import { Injectable } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import type { UsageKind } from '@mailproof/persistence';
import { buildProblem, sendProblem } from '../problems/problem-response';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { DashboardAuthenticator } from './dashboard-authenticator';
import { RateLimiterService } from './rate-limiter.service';
import { UsageRecorder } from './usage-recorder.service';
import type { AuthenticatedRequest } from './request-identity';

/**
 * Paths that are neither rate-limited nor counted: probes, scrapes, the static assets of the share page and
 * dashboard, and screenshots (immutable by name; a share page shows up to 42 of them at once, past the
 * anonymous limit).
 */
const EXEMPT = /^\/(health\/|metrics(\/queues)?$|share\/assets\/|app\/assets\/|screenshots\/)/;
/** The dashboard: identified by its session cookie, rate-limited like the API, not counted as key usage. */
export const DASHBOARD_PATH = /^\/app(\/|$)/;

export function usageKindOf(path: string): UsageKind {
  if (/^\/api\/previews?(\/|$)/.test(path)) return 'preview';
  if (/^\/api\/gate(\/|$)/.test(path)) return 'gate';
  if (/^\/api\/deliverability(\/|$)/.test(path)) return 'deliverability';
  if (/^\/api\/mcp(\/|$)/.test(path)) return 'mcp';
  if (/^\/api\/fix(\/|$)/.test(path)) return 'fix';
  return 'other';
}

/**
 * Runs before routing and body parsing, for every request: identifies the caller, applies the
 * per-minute limit (per account with a valid key, else per client IP), sets the RateLimit-*
 * headers and counts usage. Enforcing that a route needs a key is the AuthGuard's job.
 */
@Injectable()
export class AccessMiddleware {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly rateLimiter: RateLimiterService,
    private readonly usage: UsageRecorder,
    private readonly dashboard: DashboardAuthenticator,
  ) {}

  readonly handle = (req: AuthenticatedRequest, res: Response, next: NextFunction): void => {
    if (EXEMPT.test(req.path)) return next();
    this.run(req, res).then(
      (proceed) => (proceed ? next() : undefined),
      (error: unknown) => next(error),
    );
  };

  private async run(req: AuthenticatedRequest, res: Response): Promise<boolean> {
    const dashboard = DASHBOARD_PATH.test(req.path);
    let identity;
    if (dashboard) {
      const found = await this.dashboard.identify(req);
      identity = found.identity;
      req.dashboardSession = found.session;
    } else {
      identity = await this.authenticator.identify(req.headers);
    }
    req.identity = identity;
    const decision = identity.account
      ? await this.rateLimiter.consume(identity.account.plan, `account:${identity.account.accountId}`)
      : await this.rateLimiter.consume('anonymous', `ip:${req.ip ?? 'unknown'}`);
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      const retryAfter = Math.min(60, Math.max(1, decision.resetSeconds));
      sendProblem(
        res,
        buildProblem(429, 'rate_limited', `Rate limit of ${decision.limit} requests per window reached; retry in ${retryAfter} s.`, {
          instance: req.path,
        }),
        { 'Retry-After': String(retryAfter) },
      );
      return false;
    }
    if (identity.account && !dashboard) this.usage.record(identity.account.keyId, usageKindOf(req.path));
    return true;
  }
}
