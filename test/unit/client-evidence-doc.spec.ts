import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

describe('docs/client-evidence.md', () => {
  it('is the evidence table the client models print now (regenerate: npm run -s check:fidelity -- --markdown > docs/client-evidence.md)', () => {
    const generated = execFileSync(process.execPath, [join(root, 'scripts', 'check-fidelity.js'), '--markdown'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(generated).toContain('## Thunderbird (`thunderbird`)');
    expect(generated).not.toMatch(/\| FAIL/);
    expect(readFileSync(join(root, 'docs', 'client-evidence.md'), 'utf8')).toBe(generated);
  });
});
