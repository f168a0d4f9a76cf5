import type { Request } from 'express';
import type { AuthenticatedAccount } from './auth.decorators';
import type { DashboardSession } from './dashboard-session.store';

/**
 * Who is calling, as the access middleware found it before routing:
 * - `account` when a valid key was presented;
 * - `credentials: 'invalid'` when a key was presented but is malformed, unknown or revoked;
 * - `credentials: 'none'` for an anonymous call.
 */
export interface RequestIdentity {
  account?: AuthenticatedAccount;
  credentials: 'valid' | 'invalid' | 'none';
}

/** `dashboardSession`: set on /app requests with a live session (its id and CSRF token). */
export type AuthenticatedRequest = Request & { identity?: RequestIdentity; dashboardSession?: DashboardSession & { sessionId: string } };
