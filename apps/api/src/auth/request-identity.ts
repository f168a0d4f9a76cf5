import type { Request } from 'express';
import type { AuthenticatedAccount } from './auth.decorators';

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

export type AuthenticatedRequest = Request & { identity?: RequestIdentity };
