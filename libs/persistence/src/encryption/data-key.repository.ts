import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DataKey } from './envelope';
import { DataKeyring } from './data-keyring';
import { AccountGoneError, EncryptedContentGoneError } from './encryption.errors';

interface DataKeyRow {
  id: string;
  accountId: string | null;
  day: string | null;
  kekId: string;
  wrapped: Buffer;
}

const SELECT = `SELECT id, account_id AS "accountId", anonymous_day::text AS day, kek_id AS "kekId", wrapped_key AS wrapped FROM account_data_keys`;
/** Data keys kept unwrapped per process: 32 bytes each, so the bound is about the number of active accounts, not memory. */
const CACHE_LIMIT = 10_000;

/** Who a data key belongs to: the account, or the UTC day of anonymous content (`anonymous:2026-11-27`). */
function ownerOf(row: Pick<DataKeyRow, 'accountId' | 'day'>): string {
  return row.accountId ?? `anonymous:${row.day}`;
}

/**
 * The data keys of encryption at rest (docs/privacy.md): one per account, created on its first encrypted write,
 * and one per UTC day for anonymous content, so that a day's key can be shredded once everything it sealed has
 * expired. Stored wrapped by the keyring; unwrapped once per process and kept in a bounded cache. A key destroyed
 * by another process stays in this one's cache until forgotten (forgetAccount: the API does it when told of an
 * erasure) or evicted: it can still open rows, but the rows went with it (erasure deletes both), and what it seals
 * afterwards no process can open again.
 */
@Injectable()
export class DataKeyRepository {
  private readonly byOwner = new Map<string, DataKey>();
  private readonly byId = new Map<string, DataKey>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly keyring: DataKeyring,
  ) {}

  /** The key new content of this account (null: anonymous, today's key) is sealed with; created on first use. */
  async keyFor(accountId: string | null, now = new Date()): Promise<DataKey> {
    const owner = accountId ?? `anonymous:${utcDay(now)}`;
    const cached = this.byOwner.get(owner);
    if (cached) return cached;
    const where = accountId === null ? ['anonymous_day = $1::date', utcDay(now)] : ['account_id = $1', accountId];
    const found = await this.query(`${SELECT} WHERE ${where[0]}`, [where[1]]);
    const row = found[0] ?? (await this.create(accountId, accountId === null ? utcDay(now) : null));
    return this.remember(row);
  }

  /** The key a ciphertext names; EncryptedContentGoneError when it was destroyed. */
  async keyById(id: string): Promise<DataKey> {
    const cached = this.byId.get(id);
    if (cached) return cached;
    const [row] = await this.query(`${SELECT} WHERE id = $1`, [id]);
    if (!row) throw new EncryptedContentGoneError(id);
    return this.remember(row);
  }

  /**
   * Crypto-shredding: deletes the account's data key, so every copy of its encrypted rows (a backup, a replica,
   * a forgotten dump) stays unreadable. Pass the transaction's manager to erase it with the account's rows.
   */
  async destroyForAccount(accountId: string, manager?: EntityManager): Promise<boolean> {
    const runner = manager ?? this.dataSource.manager;
    const deleted = (await runner.query('DELETE FROM account_data_keys WHERE account_id = $1 RETURNING id', [accountId])) as [Array<{ id: string }>, number];
    this.forget(accountId, deleted[0]);
    return deleted[0].length > 0;
  }

  /** Drops the account's key from this process's cache (destroyed by another process, or by a transaction that committed since). */
  forgetAccount(accountId: string): void {
    const cached = this.byOwner.get(accountId);
    this.forget(accountId, cached ? [cached] : []);
  }

  /** Shreds the anonymous keys of days before `day` (UTC, `YYYY-MM-DD`): the preview cleanup calls it once their content expired. */
  async destroyAnonymousBefore(day: string): Promise<number> {
    const deleted = (await this.dataSource.query('DELETE FROM account_data_keys WHERE anonymous_day < $1::date RETURNING id, anonymous_day::text AS day', [
      day,
    ])) as [Array<{ id: string; day: string }>, number];
    for (const row of deleted[0]) this.forget(`anonymous:${row.day}`, [row]);
    return deleted[0].length;
  }

  /**
   * Rewraps every data key under the ring's first key (`mailproof keys rotate`). Idempotent: keys wrapped by it
   * already are counted, not touched. A key the ring cannot unwrap stops the rotation with DataKeyringError
   * naming its key id; those rewrapped before it stay rewrapped (each update is atomic).
   */
  async rotate(): Promise<{ rewrapped: number; current: number }> {
    const current = this.keyring.currentId;
    const [{ count }] = (await this.dataSource.query('SELECT count(*)::int AS count FROM account_data_keys WHERE kek_id = $1', [current])) as Array<{
      count: number;
    }>;
    let rewrapped = 0;
    for (const row of await this.query(`${SELECT} WHERE kek_id <> $1 ORDER BY created_at`, [current])) {
      const key = this.keyring.unwrap(row.id, ownerOf(row), row.kekId, row.wrapped);
      const { kekId, wrapped } = this.keyring.wrap(row.id, ownerOf(row), key);
      const updated = (await this.dataSource.query(
        'UPDATE account_data_keys SET kek_id = $2, wrapped_key = $3, rewrapped_at = now() WHERE id = $1 AND kek_id = $4 RETURNING id',
        [row.id, kekId, wrapped, row.kekId],
      )) as [unknown[], number];
      rewrapped += updated[1];
    }
    return { rewrapped, current: count };
  }

  private async create(accountId: string | null, day: string | null): Promise<DataKeyRow> {
    const id = randomUUID();
    const { kekId, wrapped } = this.keyring.wrap(id, accountId ?? `anonymous:${day}`, randomBytes(32));
    const conflict = accountId === null ? '(anonymous_day) WHERE anonymous_day IS NOT NULL' : '(account_id) WHERE account_id IS NOT NULL';
    const inserted = await this.query(
      `INSERT INTO account_data_keys (id, account_id, anonymous_day, kek_id, wrapped_key) VALUES ($1, $2, $3::date, $4, $5)
       ON CONFLICT ${conflict} DO NOTHING
       RETURNING id, account_id AS "accountId", anonymous_day::text AS day, kek_id AS "kekId", wrapped_key AS wrapped`,
      [id, accountId, day, kekId, wrapped],
    ).catch((error: unknown) => {
      // 23503 foreign_key_violation: the account was erased after its key (or session) was looked up.
      const code = (error as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (error as { code?: string }).code;
      if (accountId !== null && code === '23503') throw new AccountGoneError(accountId);
      throw error;
    });
    if (inserted[0]) return inserted[0];
    // Another process created the owner's key between our read and our insert: use theirs.
    const [existing] = await this.query(`${SELECT} WHERE ${accountId === null ? 'anonymous_day = $1::date' : 'account_id = $1'}`, [accountId ?? day]);
    return existing;
  }

  private remember(row: DataKeyRow): DataKey {
    const key: DataKey = { id: row.id, key: this.keyring.unwrap(row.id, ownerOf(row), row.kekId, row.wrapped) };
    if (this.byId.size >= CACHE_LIMIT) {
      // Full: start again rather than track recency; a miss costs one query and an unwrap (microseconds).
      this.byId.clear();
      this.byOwner.clear();
    }
    this.byId.set(key.id, key);
    this.byOwner.set(ownerOf(row), key);
    return key;
  }

  private forget(owner: string, rows: Array<{ id: string }>): void {
    this.byOwner.delete(owner);
    for (const row of rows) this.byId.delete(row.id);
  }

  private async query(sql: string, parameters: unknown[]): Promise<DataKeyRow[]> {
    return (await this.dataSource.query(sql, parameters)) as DataKeyRow[];
  }
}

/** `YYYY-MM-DD` of the instant, in UTC. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}
