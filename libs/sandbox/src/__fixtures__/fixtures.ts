import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Fixtures written for Mailproof. `.txt` keeps the TSX out of the project's own type-check. */
export function fixture(name: string): string {
  return readFileSync(path.join(__dirname, name), 'utf8');
}
