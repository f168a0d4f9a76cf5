import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// docs/architecture.md: the engine stays pure. This guards the gate's own files.
const FORBIDDEN = /from '(@nestjs\/|typeorm|bullmq|ioredis|node:|fs|net|http|https|dns|undici)|\bprocess\.env\b|\bfetch\(|\bset(Timeout|Interval|Immediate)\(|\bconsole\.|\bDate\.now\(|new Date\(|Math\.random\(/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('libs/engine/src/gate purity', () => {
  it.each(sources(__dirname).map((path) => [path.slice(__dirname.length + 1), path]))('%s uses no I/O, framework, clock, randomness or timers', (_name, path) => {
    const source = readFileSync(path, 'utf8');
    expect(source.split('\n').filter((line) => FORBIDDEN.test(line))).toEqual([]);
  });
});
