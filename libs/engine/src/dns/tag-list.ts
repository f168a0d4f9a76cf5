/**
 * `tag=value; tag=value` lists of DKIM (RFC 6376 3.2), DMARC (RFC 7489 6.4) and BIMI records.
 * Tag names are case-insensitive and returned lowercase; values are trimmed. A repeated tag is
 * reported in `duplicates` (the record is then invalid for DKIM and DMARC).
 */
export interface TagList {
  tags: Map<string, string>;
  /** Tags in the order they appear. */
  order: string[];
  duplicates: string[];
  malformed: string[];
}

export function parseTagList(record: string): TagList {
  const tags = new Map<string, string>();
  const order: string[] = [];
  const duplicates: string[] = [];
  const malformed: string[] = [];
  for (const part of record.split(';')) {
    const text = part.trim();
    if (text === '') continue;
    const eq = text.indexOf('=');
    if (eq <= 0) {
      malformed.push(text);
      continue;
    }
    const name = text.slice(0, eq).trim().toLowerCase();
    const value = text.slice(eq + 1).trim();
    if (!/^[a-z][a-z0-9_]*$/.test(name)) {
      malformed.push(text);
      continue;
    }
    if (tags.has(name)) duplicates.push(name);
    else {
      tags.set(name, value);
      order.push(name);
    }
  }
  return { tags, order, duplicates, malformed };
}
