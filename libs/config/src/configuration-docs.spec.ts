import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { EnvironmentVariables } from './environment.schema';

const ROOT = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Every variable the schema validates: each property carries at least one class-validator decorator. */
function schemaVariables(): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(EnvironmentVariables, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))].sort();
}

/** The first cell of each table row, when it is one backticked variable name. */
function tableVariables(markdown: string): string[] {
  return [...markdown.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((m) => m[1]);
}

/** `NAME=value` lines, set or commented out (`# NAME=`). */
function envExampleVariables(text: string): string[] {
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
}

const missing = (expected: string[], listed: string[]) => expected.filter((name) => !listed.includes(name));

describe('configuration docs list what the environment schema reads', () => {
  const schema = schemaVariables();

  it('finds the schema variables', () => {
    expect(schema).toEqual(expect.arrayContaining(['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'PUBLIC_BASE_URL', 'PORT', 'LOG_LEVEL']));
    expect(schema.length).toBeGreaterThan(30);
  });

  it('docs/configuration.md has a table row for every variable, and none the schema does not read', () => {
    const listed = tableVariables(read('docs/configuration.md'));
    expect({ missing: missing(schema, listed), unknown: missing(listed, schema) }).toEqual({ missing: [], unknown: [] });
  });

  it('.env.example has a line for every variable, and none the schema does not read', () => {
    const listed = envExampleVariables(read('.env.example'));
    expect({ missing: missing(schema, listed), unknown: missing(listed, schema) }).toEqual({ missing: [], unknown: [] });
  });

  it("the README's table names only variables the schema reads, each spelled out", () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const rows = section.split('\n').filter((line) => /^\|\s*`/.test(line));
    const named = rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]));
    expect(named.length).toBeGreaterThan(5);
    expect(missing(named, schema)).toEqual([]);
  });
});
