import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { DataKeyEncryptionKey } from '@mailproof/config';
import { DataKeyringError } from './encryption.errors';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key-encryption keys of MAILPROOF_DATA_KEYS: the first wraps new data keys (and rewraps on rotation), every
 * one unwraps. A wrapped data key is `iv | tag | ciphertext`; its AAD names the data key and its owner, so a wrapped
 * key copied onto another row (another account's) does not unwrap.
 */
export class DataKeyring {
  constructor(private readonly keys: readonly DataKeyEncryptionKey[]) {
    if (keys.length === 0) throw new DataKeyringError('MAILPROOF_DATA_KEYS holds no key');
  }

  /** The id of the key that wraps new data keys. */
  get currentId(): string {
    return this.keys[0].id;
  }

  /**
   * A deployment secret for one purpose (e.g. keying the link-check cache's hashes), derived with HKDF-SHA256 from the
   * ring's first key: nothing new to configure, different per deployment, and useless to whoever reads only Redis.
   * Rotating the first key changes it (what it keyed, a cache, is then missed and refilled).
   */
  derivedSecret(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.keys[0].key, Buffer.alloc(0), `mailproof|${purpose}|v1`, 32));
  }

  wrap(dataKeyId: string, owner: string, dataKey: Buffer): { kekId: string; wrapped: Buffer } {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0].key, iv);
    cipher.setAAD(wrapAad(dataKeyId, owner));
    const sealed = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return { kekId: this.keys[0].id, wrapped: Buffer.concat([iv, cipher.getAuthTag(), sealed]) };
  }

  unwrap(dataKeyId: string, owner: string, kekId: string, wrapped: Buffer): Buffer {
    const kek = this.keys.find((key) => key.id === kekId);
    if (!kek) {
      throw new DataKeyringError(
        `data key ${dataKeyId} is wrapped by key "${kekId}", which MAILPROOF_DATA_KEYS does not hold (it holds ${this.keys.map((k) => `"${k.id}"`).join(', ')}): put "${kekId}" back in the ring`,
        kekId,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', kek.key, wrapped.subarray(0, IV_BYTES));
      decipher.setAAD(wrapAad(dataKeyId, owner));
      decipher.setAuthTag(wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new DataKeyringError(
        `data key ${dataKeyId} does not unwrap with key "${kekId}": the key under that id in MAILPROOF_DATA_KEYS is not the one that wrapped it`,
        kekId,
      );
    }
  }
}

function wrapAad(dataKeyId: string, owner: string): Buffer {
  return Buffer.from(`mailproof-data-key|v1|${dataKeyId}|${owner}`, 'utf8');
}
