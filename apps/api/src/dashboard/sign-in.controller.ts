import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { MailproofConfig } from '@mailproof/config';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { clearDashboardCookie, readCookie, setDashboardCookie, SESSION_COOKIE, SIGN_IN_CSRF_COOKIE } from '../auth/dashboard-cookies';
import { DashboardSessionStore } from '../auth/dashboard-session.store';
import { RateLimiterService } from '../auth/rate-limiter.service';
import type { AuthenticatedRequest } from '../auth/request-identity';
import { sameToken } from './dashboard-gate.middleware';
import { sendPage } from './dashboard-http';
import { signInPage } from './views/sign-in.view';

const SIGN_IN_PATH = '/app/sign-in';

/** Sign-in with an API key, exchanged for a server-side session; sign-out ends it. */
@ApiExcludeController()
@Controller('app')
export class SignInController {
  constructor(
    private readonly config: MailproofConfig,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly sessions: DashboardSessionStore,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  @Get('sign-in')
  form(@Req() req: AuthenticatedRequest, @Res() res: Response): void {
    if (req.dashboardSession) return res.redirect(303, '/app');
    this.sendForm(req, res, 200);
  }

  @Post('sign-in')
  async signIn(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    // Login CSRF: a cross-site form cannot read our cookie, so it cannot send the same value in the body.
    const cookieToken = readCookie(req, SIGN_IN_CSRF_COOKIE);
    if (!cookieToken || !sameToken(cookieToken, body._csrf)) {
      return this.sendForm(req, res, 403, 'The form expired. Please try again.');
    }
    const decision = await this.rateLimiter.consumeSignIn(req.ip ?? 'unknown');
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(Math.max(1, decision.resetSeconds)));
      return this.sendForm(req, res, 429, `Too many sign-in attempts from your address. Try again in ${Math.ceil(decision.resetSeconds / 60)} minutes.`);
    }
    const key = typeof body.key === 'string' ? body.key.trim() : '';
    const identity = key ? await this.authenticator.identify({ 'x-api-key': key }) : { credentials: 'none' as const };
    if (!identity.account) return this.sendForm(req, res, 401, 'That API key is not valid: it may be mistyped or revoked.');
    const { sessionId } = await this.sessions.create(identity.account.accountId, identity.account.keyId);
    clearDashboardCookie(req, res, this.config.http.publicBaseUrl, SIGN_IN_CSRF_COOKIE, SIGN_IN_PATH);
    setDashboardCookie(req, res, this.config.http.publicBaseUrl, SESSION_COOKIE, sessionId, this.config.dashboard.sessionTtlSeconds);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, '/app');
  }

  /** CSRF-checked by the dashboard gate, like every state change. */
  @Post('sign-out')
  async signOut(@Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    await this.sessions.destroy(req.dashboardSession?.sessionId);
    clearDashboardCookie(req, res, this.config.http.publicBaseUrl, SESSION_COOKIE);
    res.redirect(303, SIGN_IN_PATH);
  }

  private sendForm(req: Request, res: Response, status: number, error?: string): void {
    const token = randomBytes(24).toString('base64url');
    setDashboardCookie(req, res, this.config.http.publicBaseUrl, SIGN_IN_CSRF_COOKIE, token, 3600, SIGN_IN_PATH);
    sendPage(res, status, signInPage(token, error));
  }
}
