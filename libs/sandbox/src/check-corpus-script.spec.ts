import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * Jest's process aborts when it deserialises an isolated-vm snapshot, so the specs run isolates from
 * scripts. This one runs scripts/check-corpus.js over the project's own fixture corpus in plain Node,
 * which exercises the snapshot path used in production.
 */
describe('scripts/check-corpus.js (snapshot path, plain Node)', () => {
  it('compiles the fixture corpus, or fails with CompileErrors, within 2 s per file', () => {
    const root = path.resolve(__dirname, '../../..');
    const env = { ...process.env };
    delete env.JEST_WORKER_ID;
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/check-corpus.js'), path.join(__dirname, '__fixtures__/corpus')], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/jsx\/welcome\.tsx\t[\d.]+ ms\tok/);
    expect(run.stdout).toMatch(/jsx\/tailwind\.tsx\t[\d.]+ ms\tok/);
    expect(run.stdout).toMatch(/maizzle\/main\.html\t[\d.]+ ms\tok/);
    expect(run.stdout).toMatch(/maizzle\/loop\.html\t[\d.]+ ms\tCompileError/);
    expect(run.stdout).toMatch(/mjml\/malformed\.mjml\t[\d.]+ ms\tCompileError/);
    // Every template is compiled alone and with its local imports (none in this fixture corpus).
    expect(run.stdout).toMatch(/^compiled: 5 of 7 alone, 5 of 7 with their imports from the corpus$/m);
  });
});
