/**
 * Every table that holds an account's data, and how a row reaches its account: the list erasure walks
 * (children before parents, in one transaction) and export reads. The catalogue test
 * (test/integration/account-data.int-spec.ts) reads information_schema and fails when a table with an
 * `account_id` column, or one whose foreign key points at a table listed here, is missing from this list
 * or from NOT_ACCOUNT_DATA.
 */
export interface AccountTable {
  table: string;
  /** The rows of account $1. */
  where: string;
  /** The export section the rows appear in (docs/privacy.md); null: only in the erasure (data keys). */
  exportedAs: string | null;
}

const KEY_IDS = 'SELECT id FROM api_keys WHERE account_id = $1';
const DOMAIN_IDS = 'SELECT id FROM monitored_domains WHERE account_id = $1';
const ENDPOINT_IDS = 'SELECT id FROM webhook_endpoints WHERE account_id = $1';
const EVENT_IDS = 'SELECT id FROM webhook_events WHERE account_id = $1';
const PREVIEW_IDS = 'SELECT id FROM previews WHERE account_id = $1';

/** In erasure order: a row goes before anything it references. `accounts` is last. */
export const ACCOUNT_TABLES: readonly AccountTable[] = [
  { table: 'usage_counters', where: `key_id IN (${KEY_IDS})`, exportedAs: 'usage' },
  { table: 'drift_events', where: `monitored_domain_id IN (${DOMAIN_IDS})`, exportedAs: 'driftEvents' },
  { table: 'webhook_deliveries', where: `endpoint_id IN (${ENDPOINT_IDS}) OR event_id IN (${EVENT_IDS})`, exportedAs: 'webhookDeliveries' },
  { table: 'webhook_events', where: 'account_id = $1', exportedAs: 'webhookEvents' },
  { table: 'webhook_endpoints', where: 'account_id = $1', exportedAs: 'webhooks' },
  { table: 'shares', where: `account_id = $1 OR preview_id IN (${PREVIEW_IDS})`, exportedAs: 'shares' },
  { table: 'preview_screenshots', where: `preview_id IN (${PREVIEW_IDS})`, exportedAs: 'screenshots' },
  // Sealed with the account's key and named by a hash keyed with it: the account's own (exported with the screenshots that show them).
  { table: 'screenshot_images', where: 'account_id = $1', exportedAs: null },
  { table: 'gate_baselines', where: 'account_id = $1', exportedAs: 'gateBaselines' },
  { table: 'gate_runs', where: 'account_id = $1', exportedAs: 'gateRuns' },
  { table: 'fix_runs', where: 'account_id = $1', exportedAs: 'fixRuns' },
  { table: 'previews', where: 'account_id = $1', exportedAs: 'previews' },
  // On-demand audits keep no link to a domain; account_id is SET NULL on an account's delete, so they are named here.
  { table: 'domain_audits', where: `account_id = $1 OR monitored_domain_id IN (${DOMAIN_IDS})`, exportedAs: 'domainAudits' },
  { table: 'monitored_domains', where: 'account_id = $1', exportedAs: 'domains' },
  // The account's data key (encryption at rest): never exported; erasing it makes any backup copy of the account's rows unreadable.
  { table: 'account_data_keys', where: 'account_id = $1', exportedAs: null },
  { table: 'api_keys', where: 'account_id = $1', exportedAs: 'apiKeys' },
  { table: 'accounts', where: 'id = $1', exportedAs: 'account' },
];

/** Tables that hold no account's data, each with why. */
export const NOT_ACCOUNT_DATA: Readonly<Record<string, string>> = {
  migrations: 'TypeORM bookkeeping',
  job_probes: 'round-trip diagnostics, no account',
  account_erasures: 'the audit record an erasure keeps: counts only, no account id',
};
