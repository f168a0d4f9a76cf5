import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { Plan } from '@mailproof/persistence';
import type { AuthenticatedRequest } from './request-identity';

export const AUTH_REQUIREMENT = 'mailproof:auth-requirement';
export interface AuthRequirement {
  plan: Plan | null;
}

/** The handler (or every handler of the controller) needs a valid API key: 401 otherwise. */
export const Authenticated = () =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, { plan: null } satisfies AuthRequirement), ApiBearerAuth(), ApiSecurity('x-api-key'));

/** Needs a valid key on this plan: 401 without a key, 403 plan_required with one on a lower plan. */
export const RequiresPlan = (plan: Plan) =>
  applyDecorators(SetMetadata(AUTH_REQUIREMENT, { plan } satisfies AuthRequirement), ApiBearerAuth(), ApiSecurity('x-api-key'));

/** The caller's account: set on authenticated routes, undefined on anonymous calls of public routes. */
export const CurrentAccount = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<AuthenticatedRequest>().identity?.account,
);
