import { randomInt } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters from a CSPRNG, uniform over base62 (5.95 bits each). */
export function randomBase62(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += BASE62[randomInt(62)];
  return text;
}

/** An unguessable public id: prefix + 24 base62 characters (~143 bits, above the 128 required). */
export function opaqueId(prefix: 'prv' | 'shr' | 'gtr' | 'fix'): string {
  return `${prefix}_${randomBase62(24)}`;
}

export const OPAQUE_ID_PATTERN = /^(prv|shr|gtr|fix)_[0-9A-Za-z]{24}$/;
