import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

/** The engine is pure (docs/architecture.md): no framework, database, queue, environment, I/O, timers or console. */
const FORBIDDEN = [
  /from ['"]@nestjs\//, /from ['"]typeorm['"]/, /from ['"]bullmq['"]/, /from ['"]ioredis['"]/, /process\.env/, /from ['"](node:)?fs['"]/,
  /from ['"](node:)?(net|http|https|dns)['"]/, /\bfetch\(/, /\bset(Timeout|Interval|Immediate)\(/, /\bconsole\./, /require\(['"](node:)?(fs|net|http|https)['"]\)/,
];
/** Directories this analysis core owns (compile/, reports/ and dns/ have their own rules). */
const OWNED = ['analysis', 'clients', 'dark-mode', 'fixes', 'parse', 'scores', 'transforms'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('engine purity', () => {
  const files = [...OWNED.flatMap((dir) => sources(join(__dirname, dir))), ...readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts')).map((f) => join(__dirname, f))];
  it.each(files.map((f) => [f.slice(__dirname.length + 1), f]))('%s uses no I/O, framework, timers or console', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    for (const pattern of FORBIDDEN) expect({ file: _name, match: pattern.test(text) ? String(pattern) : null }).toEqual({ file: _name, match: null });
  });
});
