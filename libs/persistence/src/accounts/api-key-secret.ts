import { createHash, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { BASE62 as ALPHABET, randomBase62 } from '../random-id';

/**
 * API key format: `mp_live_` + 32 random base62 characters (~190 bits) + a 6-character base62
 * CRC32 checksum of the random part. The checksum lets a malformed or mistyped key be refused
 * before any database or cache lookup (GitHub's token design).
 */
export const API_KEY_PREFIX = 'mp_live_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
export const DISPLAY_PREFIX_LENGTH = 12;

function base62(value: number, width: number): string {
  let text = '';
  for (let rest = value; text.length < width; rest = Math.floor(rest / 62)) text = ALPHABET[rest % 62] + text;
  return text;
}

function checksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${API_KEY_PREFIX}${random}${checksum(random)}`;
}

/** Format and checksum only: no I/O. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_PATTERN.test(candidate)) return false;
  const body = candidate.slice(API_KEY_PREFIX.length);
  const expected = Buffer.from(checksum(body.slice(0, RANDOM_LENGTH)));
  return timingSafeEqual(expected, Buffer.from(body.slice(RANDOM_LENGTH)));
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
