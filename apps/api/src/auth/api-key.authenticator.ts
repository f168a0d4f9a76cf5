import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { MailproofConfig } from '@mailproof/config';
import { AccountsRepository, hashApiKey, isWellFormedApiKey, type ActiveKey } from '@mailproof/persistence';
import type { RequestIdentity } from './request-identity';

const MAX_CACHED_KEYS = 10_000;

/** Reads the key from `Authorization: Bearer` or `x-api-key`; two different keys is an invalid request. */
export function presentedKey(headers: IncomingHttpHeaders): { key?: string; conflicting: boolean } {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
  const header = headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header?.trim();
  if (bearer && apiKey && bearer !== apiKey) return { conflicting: true };
  const hasAuthorization = headers.authorization !== undefined && headers.authorization !== '';
  if (hasAuthorization && !bearer) return { conflicting: true };
  return { key: bearer ?? apiKey ?? undefined, conflicting: false };
}

/**
 * Turns request headers into an identity. Malformed keys are refused without any lookup; valid
 * keys are cached per instance for API_KEY_CACHE_TTL_MS (at most 5 s), which bounds how long a
 * key revoked on another instance keeps working. The revoking instance forgets it at once.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { key: ActiveKey; expiresAt: number }>();

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly config: MailproofConfig,
  ) {}

  async identify(headers: IncomingHttpHeaders): Promise<RequestIdentity> {
    const { key, conflicting } = presentedKey(headers);
    if (conflicting) return { credentials: 'invalid' };
    if (key === undefined || key === '') return { credentials: 'none' };
    if (!isWellFormedApiKey(key)) return { credentials: 'invalid' };
    const hash = hashApiKey(key);
    const active = await this.lookup(hash);
    // The database matched on the hash already; compare again in constant time as defense in depth.
    if (!active || active.keyHash.length !== hash.length || !timingSafeEqual(active.keyHash, hash)) {
      return { credentials: 'invalid' };
    }
    return { credentials: 'valid', account: { accountId: active.accountId, plan: active.plan, keyId: active.keyId } };
  }

  /** Drops a key from this instance's cache (after revocation or a plan change). */
  forgetKey(keyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.key.keyId === keyId) this.cache.delete(hash);
  }

  forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.cache) if (entry.key.accountId === accountId) this.cache.delete(hash);
  }

  private async lookup(hash: Buffer): Promise<ActiveKey | null> {
    const cacheKey = hash.toString('hex');
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt > now) return cached.key;
    this.cache.delete(cacheKey);
    const key = await this.accounts.findActiveKeyByHash(hash);
    const ttl = this.config.auth.keyCacheTtlMs;
    if (key && ttl > 0) {
      if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(cacheKey, { key, expiresAt: now + ttl });
    }
    return key;
  }
}
