import type { Request } from 'express';
import type { Plan } from '@mailproof/persistence';
import type { DashboardSession } from './dashboard-session.store';

/** The caller's account and the key it called with (a dashboard session's key too), as route handlers receive it. */
export interface AuthenticatedAccount {
  accountId: string;
  plan: Plan;
  keyId: string;
}

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
