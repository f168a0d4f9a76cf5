import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { AccountEntity, PLANS, type Plan } from '../entities/account.entity';
import { ApiKeyEntity } from '../entities/api-key.entity';
import { USAGE_KINDS, type UsageKind } from '../entities/usage-counter.entity';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-secret';

export class AccountNotFoundError extends Error {
  constructor(readonly accountId: string) {
    super(`no account ${accountId}`);
  }
}

export class KeyLimitReachedError extends Error {
  constructor(
    readonly plan: Plan,
    readonly limit: number,
  ) {
    super(`${plan} accounts may hold up to ${limit} active keys`);
  }
}

export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  createdAt: Date;
}

export interface ActiveKey {
  keyId: string;
  accountId: string;
  plan: Plan;
  keyHash: Buffer;
}

export interface KeyWithUsage {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  usage: {
    last30Days: { requests: number; previews: number; gates: number; deliverability: number; mcp: number; fixes: number };
    daily: { date: string; requests: number }[];
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USAGE_DAYS = 30;

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Accounts, API keys and usage: used by the API (authentication, /api/keys) and by the
 * operator commands of the CLI, so it is a plain class over a DataSource.
 */
@Injectable()
export class AccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async createAccount(name: string, plan: Plan): Promise<{ account: AccountEntity; key: CreatedApiKey }> {
    if (!PLANS.includes(plan)) throw new Error(`plan must be one of ${PLANS.join(', ')}`);
    return this.dataSource.transaction(async (manager) => {
      const account = await manager.getRepository(AccountEntity).save(manager.create(AccountEntity, { name, plan }));
      const key = await this.insertKey(manager, account.id, 'default');
      return { account, key };
    });
  }

  /** Moves the account to the plan; a retention longer than `maxRetentionDays` (the plan's, MAX_RETENTION_DAYS in contracts) is shortened to it. */
  async setPlan(accountId: string, plan: Plan, maxRetentionDays: number): Promise<AccountEntity> {
    if (!PLANS.includes(plan)) throw new Error(`plan must be one of ${PLANS.join(', ')}`);
    const account = await this.findAccount(accountId);
    if (!account) throw new AccountNotFoundError(accountId);
    account.plan = plan;
    account.retentionDays = Math.min(account.retentionDays, maxRetentionDays);
    return this.dataSource.getRepository(AccountEntity).save(account);
  }

  /** Accounts by exact name (names are not unique: the caller decides what several mean). */
  findAccountsByName(name: string): Promise<AccountEntity[]> {
    return this.dataSource.getRepository(AccountEntity).find({ where: { name }, order: { createdAt: 'ASC' } });
  }

  findAccount(accountId: string): Promise<AccountEntity | null> {
    if (!UUID.test(accountId)) return Promise.resolve(null);
    return this.dataSource.getRepository(AccountEntity).findOneBy({ id: accountId });
  }

  async listAccounts(): Promise<Array<AccountEntity & { activeKeys: number }>> {
    const rows: Array<{ id: string; name: string; plan: Plan; created_at: Date; active_keys: string }> = await this.dataSource.query(`
      SELECT a.id, a.name, a.plan, a.created_at, count(k.id) FILTER (WHERE k.revoked_at IS NULL) AS active_keys
      FROM accounts a LEFT JOIN api_keys k ON k.account_id = a.id
      GROUP BY a.id ORDER BY a.created_at, a.id`);
    return rows.map((r) =>
      Object.assign(new AccountEntity(), { id: r.id, name: r.name, plan: r.plan, createdAt: r.created_at, activeKeys: Number(r.active_keys) }),
    );
  }

  /** Creates a key unless the account already holds its plan's number of active keys (checked under a row lock). */
  async createKey(accountId: string, name: string, limits: Record<Plan, number>): Promise<CreatedApiKey> {
    return this.dataSource.transaction(async (manager) => {
      const [account]: Array<{ plan: Plan }> = UUID.test(accountId)
        ? await manager.query('SELECT plan FROM accounts WHERE id = $1 FOR UPDATE', [accountId])
        : [];
      if (!account) throw new AccountNotFoundError(accountId);
      const [{ active }]: Array<{ active: string }> = await manager.query(
        'SELECT count(*) AS active FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
        [accountId],
      );
      if (Number(active) >= limits[account.plan]) throw new KeyLimitReachedError(account.plan, limits[account.plan]);
      return this.insertKey(manager, accountId, name);
    });
  }

  private async insertKey(manager: EntityManager, accountId: string, name: string): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const row = await manager
      .getRepository(ApiKeyEntity)
      .save(manager.create(ApiKeyEntity, { accountId, name, prefix: displayPrefix(key), keyHash: hashApiKey(key), lastUsedAt: null, revokedAt: null }));
    return { id: row.id, name: row.name, key, prefix: row.prefix, createdAt: row.createdAt };
  }

  /** One query: the active key with this hash and its account's plan. */
  async findActiveKeyByHash(keyHash: Buffer): Promise<ActiveKey | null> {
    const rows: Array<{ id: string; account_id: string; plan: Plan; key_hash: Buffer }> = await this.dataSource.query(
      `SELECT k.id, k.account_id, a.plan, k.key_hash FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [keyHash],
    );
    const row = rows[0];
    return row ? { keyId: row.id, accountId: row.account_id, plan: row.plan, keyHash: row.key_hash } : null;
  }

  /** The key when it is still active, with its account's current plan (a dashboard session checks this on every request). */
  async findActiveKeyById(keyId: string): Promise<Omit<ActiveKey, 'keyHash'> | null> {
    if (!UUID.test(keyId)) return null;
    const rows: Array<{ id: string; account_id: string; plan: Plan }> = await this.dataSource.query(
      `SELECT k.id, k.account_id, a.plan FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1 AND k.revoked_at IS NULL`,
      [keyId],
    );
    const row = rows[0];
    return row ? { keyId: row.id, accountId: row.account_id, plan: row.plan } : null;
  }

  /** Revokes an active key of this account; false when there is none (unknown, revoked, or another account's). */
  async revokeKey(accountId: string, keyId: string): Promise<boolean> {
    if (!UUID.test(keyId)) return false;
    const result: [unknown, number] = await this.dataSource.query(
      'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL',
      [keyId, accountId],
    );
    return result[1] > 0;
  }

  /**
   * Adds batched request counts and stamps last_used_at of the given keys, in one statement.
   * Counts of keys deleted meanwhile are dropped (the join), not an error.
   */
  async addUsage(counts: Array<{ keyId: string; day: string; kind: UsageKind; count: number }>, touchedKeyIds: string[], now = new Date()): Promise<void> {
    await this.dataSource.query(
      `WITH counted AS (
         INSERT INTO usage_counters (key_id, day, kind, count)
         SELECT u.key_id, u.day, u.kind, u.count
         FROM unnest($1::uuid[], $2::date[], $3::text[], $4::int[]) AS u(key_id, day, kind, count)
         JOIN api_keys k ON k.id = u.key_id
         ON CONFLICT (key_id, day, kind) DO UPDATE SET count = usage_counters.count + EXCLUDED.count
       )
       UPDATE api_keys SET last_used_at = $6 WHERE id = ANY($5::uuid[])`,
      [counts.map((c) => c.keyId), counts.map((c) => c.day), counts.map((c) => c.kind), counts.map((c) => c.count), touchedKeyIds, now],
    );
  }

  /** Active keys of an account with 30 days of usage (oldest day first, days without requests included). */
  async listKeysWithUsage(accountId: string, now = new Date()): Promise<KeyWithUsage[]> {
    const active = await this.dataSource.getRepository(ApiKeyEntity).find({
      where: { accountId, revokedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    if (active.length === 0) return [];
    const days: string[] = [];
    for (let i = USAGE_DAYS - 1; i >= 0; i--) days.push(isoDay(new Date(now.getTime() - i * 86_400_000)));
    const usage: Array<{ key_id: string; day: string; kind: UsageKind; count: number }> = await this.dataSource.query(
      `SELECT key_id, to_char(day, 'YYYY-MM-DD') AS day, kind, count FROM usage_counters
       WHERE key_id = ANY($1::uuid[]) AND day >= $2::date AND day <= $3::date`,
      [active.map((k) => k.id), days[0], days[days.length - 1]],
    );
    return active.map((key) => {
      const mine = usage.filter((u) => u.key_id === key.id);
      const byKind = (kind: UsageKind) => mine.filter((u) => u.kind === kind).reduce((sum, u) => sum + u.count, 0);
      const totals = Object.fromEntries(USAGE_KINDS.map((kind) => [kind, byKind(kind)])) as Record<UsageKind, number>;
      return {
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        createdAt: key.createdAt.toISOString(),
        lastUsedAt: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
        usage: {
          last30Days: {
            requests: mine.reduce((sum, u) => sum + u.count, 0),
            previews: totals.preview,
            gates: totals.gate,
            deliverability: totals.deliverability,
            mcp: totals.mcp,
            fixes: totals.fix,
          },
          daily: days.map((date) => ({ date, requests: mine.filter((u) => u.day === date).reduce((sum, u) => sum + u.count, 0) })),
        },
      };
    });
  }
}
