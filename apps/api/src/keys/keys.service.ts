import { Injectable } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { AccountsRepository, KeyLimitReachedError } from '@mailproof/persistence';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { DashboardSessionStore } from '../auth/dashboard-session.store';
import { ProblemException } from '../problems/problem.exception';
import type { CreatedKeyResponse, KeySummary } from './dto/key.response';

/** API keys of an account, for /api/keys and the dashboard alike. */
@Injectable()
export class KeysService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly sessions: DashboardSessionStore,
    private readonly config: MailproofConfig,
  ) {}

  async create(account: AuthenticatedAccount, name: string): Promise<CreatedKeyResponse> {
    try {
      const key = await this.accounts.createKey(account.accountId, name, this.config.auth.keyLimits);
      return { ...key, createdAt: key.createdAt.toISOString() };
    } catch (error) {
      if (error instanceof KeyLimitReachedError) {
        throw new ProblemException(
          'forbidden',
          `${error.plan === 'free' ? 'Free' : 'Pro'} accounts may hold up to ${error.limit} active keys; revoke one first${error.plan === 'free' ? ' or move to Pro' : ''}.`,
          { limit: error.limit },
        );
      }
      throw error;
    }
  }

  list(account: AuthenticatedAccount): Promise<KeySummary[]> {
    return this.accounts.listKeysWithUsage(account.accountId);
  }

  /**
   * Revokes the key: this instance forgets it at once (others within API_KEY_CACHE_TTL_MS) and
   * every dashboard session opened with it ends now.
   */
  async revoke(account: AuthenticatedAccount, id: string): Promise<void> {
    const revoked = await this.accounts.revokeKey(account.accountId, id);
    if (!revoked) throw new ProblemException('not_found', 'No active key with this id in your account.');
    this.authenticator.forgetKey(id);
    await this.sessions.destroyForKey(id);
  }
}
