import { createHmac, hkdfSync } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import { DataKeyRepository } from './data-key.repository';
import { FLAG_BROTLI, TEXT_PREFIX, isSealed, open, seal, sealedFlags, sealedKeyId, type SealContext } from './envelope';

const TEXT_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

/**
 * Encrypts columns on write and decrypts them on read, for the repositories (docs/privacy.md, "Encryption at
 * rest"): callers keep storing and reading plaintext. Text is Brotli-compressed before it is sealed (ciphertext
 * does not compress, and PostgreSQL's own TOAST compression no longer can); bytes arrive compressed already
 * (a preview result). Values stored before encryption (no envelope) are returned as they are.
 */
@Injectable()
export class RowCipher {
  constructor(private readonly dataKeys: DataKeyRepository) {}

  /** A text column's stored form: `mpe1:` + base64 of the envelope. The empty string stays empty (a gate's source still to import). */
  async sealText(context: SealContext, text: string): Promise<string> {
    if (text === '') return text;
    const key = await this.dataKeys.keyFor(context.accountId);
    return TEXT_PREFIX + seal(brotliCompressSync(Buffer.from(text, 'utf8'), TEXT_BROTLI), key, context, FLAG_BROTLI).toString('base64');
  }

  async openText(context: SealContext, stored: string): Promise<string> {
    if (!stored.startsWith(TEXT_PREFIX)) return stored;
    return (await this.openBytesOf(context, Buffer.from(stored.slice(TEXT_PREFIX.length), 'base64'))).toString('utf8');
  }

  /** A jsonb column's stored form: the sealed JSON text as one JSON string (jsonb takes it; nothing queries inside). */
  async sealJson(context: SealContext, value: unknown): Promise<string> {
    return JSON.stringify(await this.sealText(context, JSON.stringify(value)));
  }

  /** A jsonb column as node-postgres parsed it: a sealed string, or a value stored before encryption. */
  async openJson<T>(context: SealContext, stored: T | string): Promise<T> {
    return typeof stored === 'string' && stored.startsWith(TEXT_PREFIX) ? (JSON.parse(await this.openText(context, stored)) as T) : (stored as T);
  }

  /**
   * A name for these bytes that only their owner's data key can compute (HMAC-SHA256, hex, under a key derived from the
   * data key for `purpose`): equal bytes of one owner get one name, while a plain SHA-256 would let anyone holding a
   * candidate (a picture of a known email) confirm it. Shredding the data key leaves the name meaningless.
   */
  async keyedHash(accountId: string | null, purpose: string, bytes: Buffer): Promise<string> {
    const dataKey = await this.dataKeys.keyFor(accountId);
    const hashKey = Buffer.from(hkdfSync('sha256', dataKey.key, Buffer.alloc(0), `mailproof|${purpose}|v1`, 32));
    return createHmac('sha256', hashKey).update(bytes).digest('hex');
  }

  async sealBytes(context: SealContext, bytes: Buffer): Promise<Buffer> {
    return seal(bytes, await this.dataKeys.keyFor(context.accountId), context);
  }

  async openBytes(context: SealContext, stored: Buffer): Promise<Buffer> {
    return isSealed(stored) ? this.openBytesOf(context, stored) : stored;
  }

  private async openBytesOf(context: SealContext, sealed: Buffer): Promise<Buffer> {
    const plain = open(sealed, await this.dataKeys.keyById(sealedKeyId(sealed)), context);
    return sealedFlags(sealed) & FLAG_BROTLI ? brotliDecompressSync(plain) : plain;
  }
}
