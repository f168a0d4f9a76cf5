import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AccountsRepository } from '@mailproof/persistence';
import { ProblemException } from '../problems/problem.exception';
import { readCookie, SESSION_COOKIE } from './dashboard-cookies';
import { DashboardSessionStore, type DashboardSession } from './dashboard-session.store';
import type { RequestIdentity } from './request-identity';

export interface DashboardIdentity {
  identity: RequestIdentity;
  session?: DashboardSession & { sessionId: string };
}

/**
 * The dashboard's identity comes from its session cookie, never from API key headers. The session's
 * key is checked on every request (one indexed query), so a key revoked anywhere (the API, the
 * dashboard, the CLI) ends its sessions on their next request, and a plan change applies at once.
 */
@Injectable()
export class DashboardAuthenticator {
  constructor(
    private readonly sessions: DashboardSessionStore,
    private readonly accounts: AccountsRepository,
  ) {}

  async identify(req: Request): Promise<DashboardIdentity> {
    const sessionId = readCookie(req, SESSION_COOKIE);
    const session = await this.sessions.find(sessionId).catch(() => {
      throw new ProblemException('service_unavailable', 'Dashboard sessions cannot be read right now (Redis is unavailable). Retry shortly.', {
        headers: { 'Retry-After': '5' },
      });
    });
    if (!session || !sessionId) return { identity: { credentials: 'none' } };
    const key = await this.accounts.findActiveKeyById(session.keyId);
    if (!key || key.accountId !== session.accountId) {
      await this.sessions.destroy(sessionId);
      return { identity: { credentials: 'none' } };
    }
    return {
      identity: { credentials: 'valid', account: { accountId: key.accountId, plan: key.plan, keyId: key.keyId } },
      session: { ...session, sessionId },
    };
  }
}
