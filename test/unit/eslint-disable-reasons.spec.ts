import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../utils/source-imports';

// docs/architecture.md, "Lint and format": an eslint-disable comment names its rule and says why after `--`.
// ESLint itself does not ask for the reason; this does, so an exception to a rule (`as unknown as`, a
// require()) is always explained where it is made.
const DIRECTORIES = ['apps', 'libs', 'launcher', 'scripts', 'bin', 'test', 'bench'];
const DIRECTIVE = /eslint-disable(?:-next-line|-line)?(?=[\s*])([^\n*]*)/g;

function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('eslint-disable comments', () => {
  const files = DIRECTORIES.flatMap((dir) => {
    try {
      return codeFiles(join(ROOT, dir));
    } catch {
      return [];
    }
  });

  it('each name one rule and give a reason after --', () => {
    const unexplained: string[] = [];
    let seen = 0;
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(DIRECTIVE)) {
        // The pattern in this file's own source is not a directive.
        if (file === __filename) continue;
        seen += 1;
        const [rules, reason] = match[1].split(' -- ');
        if (!reason?.trim() || rules.trim() === '' || rules.includes(',')) unexplained.push(`${relative(ROOT, file)}: eslint-disable${match[1]}`);
      }
    }
    expect(seen).toBeGreaterThan(0);
    expect(unexplained).toEqual([]);
  });
});
