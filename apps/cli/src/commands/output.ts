/** Prints rows as an aligned text table (the commands' human output; --json prints JSON instead). */
export function printTable(rows: Array<Record<string, string | number | null>>): void {
  if (rows.length === 0) return console.log('(none)');
  const columns = Object.keys(rows[0]);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(line(columns));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c] ?? ''))));
}

export function fail(message: string): never {
  throw new Error(message);
}
