import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(__dirname, '__fixtures__/corpus');

/** scripts/check-corpus.js over `corpus` in plain Node, with these settings. */
function checkCorpus(corpus: string, settings: Record<string, string>) {
  const env = { ...process.env, ...settings };
  delete env.JEST_WORKER_ID;
  return spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-corpus.js'), corpus], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
}

/**
 * Jest's process aborts when it deserializes an isolated-vm snapshot, so the specs run isolates from
 * scripts. This one runs scripts/check-corpus.js over the project's own fixture corpus in plain Node,
 * which exercises the snapshot path used in production. The script's time budget per file (2 s by
 * default) is proven by what it reports with a budget the fixture's endless loop cannot meet, never by
 * timing the run here.
 */
describe('scripts/check-corpus.js (snapshot path, plain Node)', () => {
  it('compiles the fixture corpus, each file ok or a CompileError, the endless loop stopped at the sandbox time limit', () => {
    // A budget no compile reaches on any machine, and a sandbox limit far above a real compile (the Tailwind
    // template took 570 ms on a loaded 2-core machine against a 500 ms limit), so only the endless loop meets
    // it and the outcome does not depend on the machine's speed.
    const run = checkCorpus(FIXTURES, { CHECK_CORPUS_LIMIT_MS: '60000', CHECK_CORPUS_SANDBOX_TIMEOUT_MS: '5000' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/jsx\/welcome\.tsx\t[\d.]+ ms\tok/);
    expect(run.stdout).toMatch(/jsx\/tailwind\.tsx\t[\d.]+ ms\tok/);
    expect(run.stdout).toMatch(/maizzle\/main\.html\t[\d.]+ ms\tok/);
    expect(run.stdout).toMatch(/maizzle\/loop\.html\t[\d.]+ ms\tCompileError: .*time limit of 5000 ms exceeded/);
    expect(run.stdout).toMatch(/mjml\/malformed\.mjml\t[\d.]+ ms\tCompileError/);
    // Every template is compiled alone and with its local imports (none in this fixture corpus).
    expect(run.stdout).toMatch(/^compiled: 5 of 7 alone, 5 of 7 with their imports from the corpus$/m);
    expect(run.stdout).toMatch(/^every corpus file compiled or failed with a CompileError within 60000 ms$/m);
  });

  it('fails, naming the file and the budget, when a compile takes longer than the budget per file', () => {
    // The endless loop runs until the sandbox stops it at 400 ms, so it cannot meet a budget of 100 ms.
    const corpus = mkdtempSync(path.join(os.tmpdir(), 'check-corpus-budget-'));
    try {
      cpSync(path.join(FIXTURES, 'maizzle/loop.html'), path.join(corpus, 'maizzle/loop.html'));
      const run = checkCorpus(corpus, { CHECK_CORPUS_LIMIT_MS: '100', CHECK_CORPUS_SANDBOX_TIMEOUT_MS: '400' });
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/maizzle\/loop\.html\t[\d.]+ ms\tCompileError: .*time limit of 400 ms exceeded/);
      expect(run.stderr).toMatch(/^1 violation\(s\):\nmaizzle\/loop\.html: took \d+ ms \(limit 100\)$/m);
      expect(run.stdout).not.toMatch(/every corpus file compiled/);
    } finally {
      rmSync(corpus, { recursive: true, force: true });
    }
  });
});
