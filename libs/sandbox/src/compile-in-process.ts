import { CompileError } from '@mailproof/engine/compile';
import type { CompileResult } from '@mailproof/engine/compile';
import { COMPILE_LIMITS, type CompileOptions } from './compile-limits';
import { getJsxSnapshot, releaseJsxSnapshot } from './jsx/jsx-snapshot';
import { getMaizzleSnapshot, releaseMaizzleSnapshot } from './maizzle/maizzle-snapshot';
import { closeSharedCompileWorkerPool, sharedCompileWorkerPool } from './worker/shared-compile-worker-pool';
import { compileJsx } from './jsx/compile-jsx';
import { compileMaizzle } from './maizzle/compile-maizzle';
import { compileMjml } from './mjml/compile-mjml';

export type CompiledFormat = 'mjml' | 'jsx' | 'maizzle';

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
        return await compileMjml(source, options);
      case 'jsx':
        return await compileJsx(source, options);
      case 'maizzle':
        return await compileMaizzle(source, options);
    }
  } catch (error) {
    if (error instanceof CompileError) throw error;
    // A bug or an infrastructure failure: still a CompileError, with a sanitized message.
    throw new CompileError({ message: error instanceof Error ? error.message : String(error), format });
  }
}

/** Builds this process's isolate snapshots and starts its compile worker (mjml and Tailwind loaded). */
export async function warmThisProcess(): Promise<void> {
  await Promise.all([getJsxSnapshot(), getMaizzleSnapshot(), sharedCompileWorkerPool().run({ kind: 'warm' }, COMPILE_LIMITS.maxTimeoutMs * 2)]);
}

/** Releases this process's snapshots and ends its compile worker threads. Safe to call twice. */
export async function disposeThisProcess(): Promise<void> {
  releaseJsxSnapshot();
  releaseMaizzleSnapshot();
  await closeSharedCompileWorkerPool();
}
