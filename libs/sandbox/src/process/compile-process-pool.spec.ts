import { CompileError, compileEmail, configureCompilers, disposeCompilers, sharedCompileProcessPool } from '../index';
import type { CompileFormat, CompileOptions } from '../index';

/**
 * Templates that kill, freeze or flood their compiler. Each must end as a CompileError naming the
 * limit it hit, the host process (this jest worker) must live on, and the next template must compile.
 * No wall-clock assertion: a compile that is never stopped fails by the test's timeout.
 */
beforeAll(() => configureCompilers({ processes: 2 }));
afterAll(() => disposeCompilers());

async function compileFailure(source: string, format: CompileFormat, options?: CompileOptions): Promise<CompileError> {
  const error = await compileEmail(source, format, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CompileError);
  return error as CompileError;
}

async function expectNextCompileWorks(): Promise<void> {
  const { html } = await compileEmail('export default function Ok() { return <p>after</p>; }', 'jsx', { timeoutMs: 5000 });
  expect(html).toContain('<p>after</p>');
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const LIMIT = /memory limit|time limit|Invalid (string|array) length|allocation failed|call stack/i;

describe('templates that would kill the process they compile in', () => {
  it.each<[string, string, CompileFormat, RegExp, CompileOptions?]>([
    [
      'JSX Array.from of 1e9 elements (killed a worker with a fatal V8 heap error)',
      'export default function E() { const a = Array.from({ length: 1e9 }); return <div>{a.length}</div>; }',
      'jsx',
      /memory limit|time limit/,
    ],
    [
      'Maizzle each over Array.from of 1e9 (killed the all-in-one process)',
      '<each loop="i in Array.from({length: 1e9})"><p>{{ i }}</p></each>',
      'maizzle',
      /memory limit|time limit/,
    ],
    // The memory limit is what this case is about, so it must fire before the time limit: on Node 24 (isolated-vm
    // 6) on a loaded 2-core machine, filling the default heap took longer than 2 s and the time limit fired.
    // A smaller heap and the longest time limit there is.
    [
      'Maizzle expression that fills an isolate heap (V8 aborts the process)',
      '{{ Array.from({ length: 1e8 }, (_, i) => i).join(",") }}',
      'maizzle',
      /memory limit/,
      { timeoutMs: 5000, memoryLimitMb: 64 },
    ],
    ['new ArrayBuffer(2**31)', 'export default function E() { const b = new ArrayBuffer(2 ** 31); return <p>{b.byteLength}</p>; }', 'jsx', LIMIT],
    ['string doubling', 'export default function E() { let s = "x"; for (;;) s += s; }', 'jsx', LIMIT],
    ['recursion bomb', 'export default function E() { const f = (n) => f(n + 1) + 1; return <p>{f(0)}</p>; }', 'jsx', LIMIT],
    [
      'recursion through components',
      'function A() { return <B />; } function B() { return <A />; } export default function E() { return <A />; }',
      'jsx',
      LIMIT,
    ],
    [
      'Atomics.wait forever',
      'export default function E() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return <p />; }',
      'jsx',
      /time limit|not defined|SharedArrayBuffer/,
    ],
    [
      'a huge JSX tree',
      'export default function E() { const rows = []; for (let i = 0; i < 3e6; i++) rows.push(<div key={i}>row {i}</div>); return <div>{rows}</div>; }',
      'jsx',
      LIMIT,
    ],
    [
      'a Tailwind config that loops',
      'import { Tailwind } from "@react-email/components"; const config = { theme: { extend: { get colors() { for (;;) {} } } } }; export default function E() { return <Tailwind config={config}><p className="text-red-500">x</p></Tailwind>; }',
      'jsx',
      /time limit/,
    ],
  ])(
    '%s: a CompileError naming its limit, and the next template compiles',
    async (_name, source, format, message, options = { timeoutMs: 2000 }) => {
      const error = await compileFailure(source, format, options);
      expect(error.message).toMatch(message);
      await expectNextCompileWorks();
    },
    40_000,
  );
});

describe('the compile process pool', () => {
  it('replaces a process that dies mid-compile and fails only the template it was compiling', async () => {
    const pool = sharedCompileProcessPool();
    await pool.warm();
    const before = pool.pids();
    expect(before).toHaveLength(2);
    // Two templates at once: one per process. Killing one process fails only its own template.
    const looping = compileEmail('export default function E() { for (;;) {} }', 'jsx', { timeoutMs: 5000 }).catch((e: unknown) => e);
    await waitFor(() => pool.busyPids().length === 1);
    const [victim] = pool.busyPids();
    const bystander = before.find((pid) => pid !== victim)!;
    process.kill(victim, 'SIGKILL');
    const error = await looping;
    expect(error).toBeInstanceOf(CompileError);
    await expectNextCompileWorks();
    expect(pool.pids()).not.toContain(victim);
    expect(pool.pids()).toContain(bystander);
  }, 40_000);

  it('kills a process past its resident memory cap with SIGKILL and says the template exceeded its memory limit', async () => {
    await disposeCompilers();
    // A cap below what a warm process holds: the first compile crosses it, whatever the template.
    configureCompilers({ processes: 1, memoryLimitMb: 64 });
    try {
      const error = await compileFailure('export default function E() { return <p>x</p>; }', 'jsx', { timeoutMs: 5000 });
      expect(error.message).toBe('The template exceeded its memory limit');
    } finally {
      await disposeCompilers();
      configureCompilers({ processes: 2, memoryLimitMb: 1024 });
    }
  }, 40_000);

  it('fails queued and running compiles with a clear error once shut down, and starts afresh after', async () => {
    const running = compileEmail('export default function E() { for (;;) {} }', 'jsx', { timeoutMs: 5000 }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await disposeCompilers();
    const error = await running;
    expect(error).toBeInstanceOf(CompileError);
    expect((error as CompileError).message).toMatch(/shut down/);
    await expectNextCompileWorks();
  }, 40_000);
});
