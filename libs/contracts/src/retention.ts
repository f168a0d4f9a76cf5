/**
 * The longest retention each plan may choose (docs/privacy.md): a product rule, applied by the API (PATCH /api/account)
 * and by `mailproof account plan` (a move to a plan with a shorter one shortens the account's); the repositories
 * store what they are given. Keyed by the plans of `accounts.plan`.
 */
export const MAX_RETENTION_DAYS: Readonly<Record<'free' | 'pro', number>> = { free: 30, pro: 365 };
