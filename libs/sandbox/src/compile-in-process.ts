import { CompileError } from '@mailproof/engine/compile';
import type { CompileResult } from '@mailproof/engine/compile';
import { COMPILE_LIMITS, type CompileOptions } from './compile-limits';
import { closeSharedCompileWorkerPool, sharedCompileWorkerPool } from './worker/shared-compile-worker-pool';

export type CompiledFormat = 'mjml' | 'jsx' | 'maizzle';

/**
 * Each format's compiler is loaded on its first compile, so a process that compiles only MJML never loads
 * isolated-vm, React or Tailwind, and works where they are not installed (the command-line package installs
 * each format's compilers on demand: docs/cli.md, "The package"). The snapshots are released only if loaded.
 */
let jsxSnapshot: typeof import('./jsx/jsx-snapshot') | undefined;
let maizzleSnapshot: typeof import('./maizzle/maizzle-snapshot') | undefined;

async function loadJsxSnapshot(): Promise<typeof import('./jsx/jsx-snapshot')> {
  return (jsxSnapshot ??= await import('./jsx/jsx-snapshot'));
}

async function loadMaizzleSnapshot(): Promise<typeof import('./maizzle/maizzle-snapshot')> {
  return (maizzleSnapshot ??= await import('./maizzle/maizzle-snapshot'));
}

/**
 * Compiles a template in this process. Only the compile process calls it: a template can make V8
 * abort the whole process (an array of 1e9 elements is a fatal "invalid size" error that no isolate
 * limit catches), so everyone else calls compileEmail, which sends the work here. Every failure is a
 * CompileError carrying the compiler's message and, where known, its line; never a server path or a stack.
 */
export async function compileInThisProcess(source: string, format: CompiledFormat, options?: CompileOptions): Promise<CompileResult> {
  try {
    switch (format) {
      case 'mjml':
        return await (await import('./mjml/compile-mjml')).compileMjml(source, options);
      case 'jsx':
        await loadJsxSnapshot();
        return await (await import('./jsx/compile-jsx')).compileJsx(source, options);
      case 'maizzle':
        await loadMaizzleSnapshot();
        return await (await import('./maizzle/compile-maizzle')).compileMaizzle(source, options);
    }
  } catch (error) {
    if (error instanceof CompileError) throw error;
    // A bug or an infrastructure failure: still a CompileError, with a sanitized message.
    throw new CompileError({ message: error instanceof Error ? error.message : String(error), format });
  }
}

/** Builds this process's isolate snapshots and starts its compile worker (mjml and Tailwind loaded). */
export async function warmThisProcess(): Promise<void> {
  const [jsx, maizzle] = await Promise.all([loadJsxSnapshot(), loadMaizzleSnapshot()]);
  await Promise.all([jsx.getJsxSnapshot(), maizzle.getMaizzleSnapshot(), sharedCompileWorkerPool().run({ kind: 'warm' }, COMPILE_LIMITS.maxTimeoutMs * 2)]);
}

/** Releases this process's snapshots and ends its compile worker threads. Safe to call twice. */
export async function disposeThisProcess(): Promise<void> {
  jsxSnapshot?.releaseJsxSnapshot();
  maizzleSnapshot?.releaseMaizzleSnapshot();
  await closeSharedCompileWorkerPool();
}
