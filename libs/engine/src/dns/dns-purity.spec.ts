import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// docs/architecture.md: the engine stays pure. This guards the DNS evaluator's own files.
const FORBIDDEN = /from '(@nestjs\/|typeorm|bullmq|ioredis|node:|fs|net|http|https|dns|tangerine|undici|punycode)|\bprocess\.env\b|\bfetch\(|\bset(Timeout|Interval|Immediate)\(|\bconsole\./;

describe('libs/engine/src/dns purity', () => {
  const files = readdirSync(__dirname).filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'));
  it.each(files)('%s uses no I/O, framework or timers', (name) => {
    const source = readFileSync(join(__dirname, name), 'utf8');
    expect(source.split('\n').filter((line) => FORBIDDEN.test(line))).toEqual([]);
  });
});
