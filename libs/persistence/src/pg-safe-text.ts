import type { ValueTransformer } from 'typeorm';

const NUL = /\u0000/g;
/** A UTF-16 surrogate without its partner: JSON escapes it, and PostgreSQL refuses that escape in jsonb. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function safeString(text: string): string {
  return text.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The value with every string made storable in a PostgreSQL text or jsonb column: NUL characters
 * (U+0000, refused by PostgreSQL in both) removed, lone surrogates replaced by U+FFFD. Arrays and
 * plain objects (keys included) are copied as they are walked; anything else (dates, buffers,
 * TypeORM's find operators) passes untouched. Strings without either character are returned as is,
 * so the common case costs one scan.
 *
 * Request bodies never carry a NUL (the API refuses it with 400); this is for text that comes from
 * elsewhere: a template's compile error, DNS TXT records, warnings quoting markup.
 */
export function pgSafe<T>(value: T): T {
  if (typeof value === 'string') return (needsCleaning(value) ? safeString(value) : value) as T;
  if (Array.isArray(value)) return value.map((item) => pgSafe(item)) as T;
  if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[pgSafe(key)] = pgSafe(item);
    return copy as T;
  }
  return value;
}

function needsCleaning(text: string): boolean {
  NUL.lastIndex = 0;
  LONE_SURROGATE.lastIndex = 0;
  return NUL.test(text) || LONE_SURROGATE.test(text);
}

/**
 * The transformer every text and jsonb column of the entities carries: one place where outside text
 * becomes storable, whichever repository method (insert, update, upsert, save) writes it.
 */
export const PG_SAFE_TEXT: ValueTransformer = { to: (value: unknown) => pgSafe(value), from: (value: unknown) => value };
