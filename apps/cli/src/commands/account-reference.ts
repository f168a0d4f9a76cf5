import type { AccountsRepository } from '@mailproof/persistence';
import { fail } from './output';

const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An account given by id or by name (operators think in names); several accounts of one name need the id. */
export async function resolveAccountId(accounts: AccountsRepository, reference: string): Promise<string> {
  if (ACCOUNT_ID.test(reference)) return reference;
  const named = await accounts.findAccountsByName(reference);
  if (named.length === 0) fail(`no account with the id or name "${reference}"`);
  if (named.length > 1) fail(`${named.length} accounts are named "${reference}"; give the account id: ${named.map((a) => a.id).join(', ')}`);
  return named[0].id;
}
