import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * The stored form of an encrypted value (docs/privacy.md, "Encryption at rest"), version 1:
 *
 *   'M' 'P' | 0x01 | flags | data key id (16 bytes, a uuid) | iv (12) | tag (16) | AES-256-GCM ciphertext
 *
 * The AAD is the 20 header bytes followed by `table|column|row id|account id` (`-` for anonymous rows): a
 * ciphertext copied onto another row, column or account does not open. In text and jsonb columns the bytes
 * are stored as `mpe1:` + base64. Rows written before encryption are plaintext and are read as they are: a
 * preview result is Brotli whose first byte's low four bits are always 0xB (a 22-bit window), never 'M' (0x4D),
 * and plaintext text never starts with `mpe1:` (the API only stores what it encrypted since).
 */
export interface SealContext {
  table: string;
  column: string;
  rowId: string;
  accountId: string | null;
}

export interface DataKey {
  /** A uuid: the row of account_data_keys. */
  id: string;
  key: Buffer;
}

/** flags bit 0: the plaintext was Brotli-compressed before sealing (text columns); the sealer decompresses after opening. */
export const FLAG_BROTLI = 1;
export const TEXT_PREFIX = 'mpe1:';

const MAGIC_0 = 0x4d;
const MAGIC_1 = 0x50;
const VERSION = 1;
const HEADER_BYTES = 20;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';

export function isSealed(stored: Buffer): boolean {
  return stored.length >= HEADER_BYTES + IV_BYTES + TAG_BYTES && stored[0] === MAGIC_0 && stored[1] === MAGIC_1 && stored[2] === VERSION;
}

/** The data key that sealed these bytes (a uuid), read from the header. */
export function sealedKeyId(stored: Buffer): string {
  const hex = stored.toString('hex', 4, HEADER_BYTES);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sealedFlags(stored: Buffer): number {
  return stored[3];
}

export function seal(plain: Buffer, dataKey: DataKey, context: SealContext, flags = 0): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + IV_BYTES + TAG_BYTES + plain.length);
  out[0] = MAGIC_0;
  out[1] = MAGIC_1;
  out[2] = VERSION;
  out[3] = flags;
  out.write(dataKey.id.replace(/-/g, ''), 4, 16, 'hex');
  const iv = randomBytes(IV_BYTES);
  iv.copy(out, HEADER_BYTES);
  const cipher = createCipheriv(ALGORITHM, dataKey.key, iv);
  cipher.setAAD(aad(out.subarray(0, HEADER_BYTES), context));
  let offset = HEADER_BYTES + IV_BYTES + TAG_BYTES;
  offset += cipher.update(plain).copy(out, offset);
  offset += cipher.final().copy(out, offset);
  cipher.getAuthTag().copy(out, HEADER_BYTES + IV_BYTES);
  return out.subarray(0, offset);
}

/** The plaintext; throws when the bytes were changed or belong to another row, column or account. */
export function open(stored: Buffer, dataKey: DataKey, context: SealContext): Buffer {
  const decipher = createDecipheriv(ALGORITHM, dataKey.key, stored.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES));
  decipher.setAAD(aad(stored.subarray(0, HEADER_BYTES), context));
  decipher.setAuthTag(stored.subarray(HEADER_BYTES + IV_BYTES, HEADER_BYTES + IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(stored.subarray(HEADER_BYTES + IV_BYTES + TAG_BYTES)), decipher.final()]);
}

function aad(header: Buffer, context: SealContext): Buffer {
  return Buffer.concat([header, Buffer.from(`${context.table}|${context.column}|${context.rowId}|${context.accountId ?? '-'}`, 'utf8')]);
}
