/** One key-encryption key of MAILPROOF_DATA_KEYS. */
export interface DataKeyEncryptionKey {
  id: string;
  key: Buffer;
}

/**
 * Outside production, without MAILPROOF_DATA_KEYS, this well-known key stands in so that tests, scripts and a
 * first `node dist/...` run work on a fresh clone. It protects nothing (it is in the source); `npm start` writes
 * a generated key into `.env` instead, and production refuses to start without keys of its own.
 */
export const DEVELOPMENT_DATA_KEYS = 'dev:bWFpbHByb29mLWRldmVsb3BtZW50LWtleS0wMDAwMDA=';

/**
 * `k2:base64,k1:base64` -> the keys in order (the first wraps new data keys). Returns the problems instead of
 * throwing, so that load-config reports them with the other variables'.
 */
export function parseDataKeys(text: string): { keys: DataKeyEncryptionKey[]; problems: string[] } {
  const keys: DataKeyEncryptionKey[] = [];
  const problems: string[] = [];
  for (const entry of text.split(',')) {
    const colon = entry.indexOf(':');
    const id = entry.slice(0, colon).trim();
    const key = Buffer.from(entry.slice(colon + 1).trim(), 'base64');
    if (key.length !== 32) problems.push(`key "${id}" is ${key.length} bytes once decoded; each key must be 32 bytes (openssl rand -base64 32)`);
    else if (keys.some((known) => known.id === id)) problems.push(`key id "${id}" appears twice`);
    else keys.push({ id, key });
  }
  return { keys, problems };
}
