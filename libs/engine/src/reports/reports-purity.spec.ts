import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';

/** The reports are pure engine code (docs/architecture.md): no framework, storage, queue, environment, I/O, timers or console. */
const FORBIDDEN = [
  /from ['"]@nestjs\//, /from ['"]typeorm['"]/, /from ['"]bullmq['"]/, /from ['"]ioredis['"]/, /process\.env/,
  /from ['"](node:)?(fs|net|http|https|dns|child_process)['"]/, /require\(['"](node:)?(fs|net|http|https|dns|child_process)['"]\)/,
  /\bfetch\(/, /\bset(Timeout|Interval|Immediate)\(/, /\bconsole\./, /\bDate\.now\(/, /\bMath\.random\(/,
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('reports purity', () => {
  const files = sources(__dirname);
  it('finds the report sources', () => {
    expect(files.length).toBeGreaterThan(10);
  });
  it.each(files.map((file) => [file.slice(__dirname.length + 1), file]))('%s uses no I/O, framework, timers, randomness or console', (name, file) => {
    const text = readFileSync(file, 'utf8');
    for (const pattern of FORBIDDEN) expect({ file: name, match: pattern.test(text) ? String(pattern) : null }).toEqual({ file: name, match: null });
  });
});
