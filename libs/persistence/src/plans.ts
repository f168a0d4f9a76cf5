/** The plans an account can be on. Kept apart from the entity so that code which only names them (the CLI's option help) loads no TypeORM. */
export type Plan = 'free' | 'pro';
export const PLANS: readonly Plan[] = ['free', 'pro'];
