import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProblemException } from '../problems/problem.exception';
import { AUTH_REQUIREMENT, type AuthRequirement } from './auth.decorators';
import type { AuthenticatedRequest } from './request-identity';

const UNAUTHORIZED_DETAIL = 'A valid API key is required: send Authorization: Bearer <key> or x-api-key: <key>.';

/**
 * Enforces @Authenticated()/@RequiresPlan() from the identity the access middleware found.
 * Missing, malformed, unknown and revoked keys get one and the same 401 body. A key that was
 * presented but is not valid is refused on public routes too, so a caller never silently
 * loses its account context.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [context.getHandler(), context.getClass()]);
    const identity = request.identity ?? { credentials: 'none' as const };
    if (identity.credentials === 'invalid' || (requirement && !identity.account)) {
      throw new ProblemException('unauthorized', UNAUTHORIZED_DETAIL, { headers: { 'WWW-Authenticate': 'Bearer realm="mailproof"' } });
    }
    if (requirement?.plan === 'pro' && identity.account?.plan !== 'pro') {
      throw new ProblemException('plan_required', 'This endpoint needs the Pro plan.', { requiredPlan: 'pro' });
    }
    return true;
  }
}
