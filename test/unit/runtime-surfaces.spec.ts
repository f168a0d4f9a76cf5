import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

// The second Node version runs one integration or e2e file per runtime surface (scripts/test.js,
// MAILPROOF_TEST_SCOPE=runtime-surfaces); a renamed or deleted file must not drop a surface quietly.
describe('test/runtime-surfaces.json', () => {
  const { surfaces } = JSON.parse(readFileSync(join(ROOT, 'test', 'runtime-surfaces.json'), 'utf8')) as { surfaces: Record<string, string> };

  it('names an existing integration or e2e file for every surface', () => {
    const entries = Object.entries(surfaces);
    expect(entries.length).toBeGreaterThanOrEqual(10);
    expect(entries.filter(([, file]) => !/^test\/(integration|e2e)\/[\w-]+\.(int|e2e)-spec\.ts$/.test(file) || !existsSync(join(ROOT, file)))).toEqual([]);
  });

  it('is what CI runs on its second Node version', () => {
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^MAILPROOF_SKIP_TYPECHECK=1 MAILPROOF_TEST_SCOPE=runtime-surfaces run_pass$/m);
  });
});
