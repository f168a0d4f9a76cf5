import type { DataSource } from 'typeorm';
import { RowCipher } from './row-cipher';
import { TEXT_PREFIX, type SealContext } from './envelope';

/** A column that holds an email's text or its URLs, as it is stored: text, jsonb or bytea. */
interface SealedColumn {
  table: 'previews' | 'fix_runs' | 'gate_runs' | 'webhook_events';
  column: string;
  kind: 'text' | 'jsonb' | 'bytea';
}

/** Every column encryption at rest seals (docs/privacy.md). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'previews', column: 'source', kind: 'text' },
  { table: 'previews', column: 'files', kind: 'jsonb' },
  { table: 'previews', column: 'result', kind: 'bytea' },
  { table: 'previews', column: 'gate_summary', kind: 'text' },
  { table: 'previews', column: 'rendered_reports', kind: 'jsonb' },
  { table: 'fix_runs', column: 'source', kind: 'text' },
  { table: 'fix_runs', column: 'files', kind: 'jsonb' },
  { table: 'fix_runs', column: 'result', kind: 'bytea' },
  { table: 'gate_runs', column: 'links', kind: 'jsonb' },
  { table: 'gate_runs', column: 'verdict', kind: 'jsonb' },
  { table: 'webhook_events', column: 'payload', kind: 'jsonb' },
];

/** The SQL test for "this value was stored before encryption" (the readers' rule: envelope.ts). */
function plaintextWhere({ column, kind }: SealedColumn): string {
  if (kind === 'text') return `${column} <> '' AND left(${column}, ${TEXT_PREFIX.length}) <> '${TEXT_PREFIX}'`;
  if (kind === 'jsonb') return `${column} IS NOT NULL AND jsonb_typeof(${column}) <> 'string'`;
  return `${column} IS NOT NULL AND substring(${column} from 1 for 3) <> '\\x4d5001'::bytea`;
}

/**
 * Seals what was stored before encryption at rest (`mailproof keys seal-existing`), column by column in batches of
 * `batchSize` rows. Each update changes a value only if it is still the one read, so a worker storing a result
 * meanwhile wins and nothing is sealed twice; a second run finds nothing. Returns the values sealed per column.
 */
export async function sealExistingRows(dataSource: DataSource, cipher: RowCipher, batchSize = 200): Promise<Record<string, number>> {
  const sealed: Record<string, number> = {};
  for (const target of SEALED_COLUMNS) {
    const name = `${target.table}.${target.column}`;
    sealed[name] = 0;
    let after = '';
    for (;;) {
      const rows = (await dataSource.query(
        `SELECT id, account_id AS "accountId", ${target.column} AS value FROM ${target.table} WHERE id > $1 AND ${plaintextWhere(target)} ORDER BY id LIMIT $2`,
        [after, batchSize],
      )) as Array<{ id: string; accountId: string | null; value: unknown }>;
      for (const row of rows) {
        const context: SealContext = { table: target.table, column: target.column, rowId: row.id, accountId: row.accountId };
        const [value, unchanged] =
          target.kind === 'text'
            ? [await cipher.sealText(context, row.value as string), `${target.column} = $3`]
            : target.kind === 'jsonb'
              ? [await cipher.sealJson(context, row.value), `${target.column} = $3::jsonb`]
              : [await cipher.sealBytes(context, row.value as Buffer), `${target.column} = $3`];
        const previous = target.kind === 'jsonb' ? JSON.stringify(row.value) : row.value;
        const updated = (await dataSource.query(`UPDATE ${target.table} SET ${target.column} = $2 WHERE id = $1 AND ${unchanged}`, [
          row.id,
          value,
          previous,
        ])) as [unknown, number];
        sealed[name] += updated[1];
      }
      if (rows.length < batchSize) break;
      after = rows[rows.length - 1].id;
    }
  }
  return sealed;
}
