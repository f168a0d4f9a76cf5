import { CompileError } from '@mailproof/engine/compile';
import type { CompileResult } from '@mailproof/engine/compile';
import { COMPILE_LIMITS, type CompileOptions } from './compile-limits';
import { compileMjml } from './mjml/compile-mjml';
import { loadOptional, required } from './optional-module';
import { closeSharedCompileWorkerPool, sharedCompileWorkerPool } from './worker/shared-compile-worker-pool';

export type CompiledFormat = 'mjml' | 'jsx' | 'maizzle';

/**
 * The compilers load when the compile process starts, before it says it is ready, so loading them never counts
 * against a compile's time limit; JSX's and Maizzle's need isolated-vm (and React, Tailwind), which the
 * command-line package installs only for those formats (docs/cli.md, "The package"): one that cannot load fails
 * only its own format's compiles. MJML's compiler needs no package here (mjml loads in the compile worker).
 */
const jsx = loadOptional(() => ({
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- its packages may be missing (see above)
  compile: require('./jsx/compile-jsx') as typeof import('./jsx/compile-jsx'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- its packages may be missing (see above)
  snapshot: require('./jsx/jsx-snapshot') as typeof import('./jsx/jsx-snapshot'),
}));
const maizzle = loadOptional(() => ({
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- its packages may be missing (see above)
  compile: require('./maizzle/compile-maizzle') as typeof import('./maizzle/compile-maizzle'),
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- its packages may be missing (see above)
  snapshot: require('./maizzle/maizzle-snapshot') as typeof import('./maizzle/maizzle-snapshot'),
}));

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
        return await required(jsx).compile.compileJsx(source, options);
      case 'maizzle':
        return await required(maizzle).compile.compileMaizzle(source, options);
    }
  } catch (error) {
    if (error instanceof CompileError) throw error;
    // A bug or an infrastructure failure: still a CompileError, with a sanitized message.
    throw new CompileError({ message: error instanceof Error ? error.message : String(error), format });
  }
}

/** Builds this process's isolate snapshots and starts its compile worker (mjml and Tailwind loaded). */
export async function warmThisProcess(): Promise<void> {
  await Promise.all([
    required(jsx).snapshot.getJsxSnapshot(),
    required(maizzle).snapshot.getMaizzleSnapshot(),
    sharedCompileWorkerPool().run({ kind: 'warm' }, COMPILE_LIMITS.maxTimeoutMs * 2),
  ]);
}

/** Releases this process's snapshots and ends its compile worker threads. Safe to call twice. */
export async function disposeThisProcess(): Promise<void> {
  if (jsx.loaded) jsx.module.snapshot.releaseJsxSnapshot();
  if (maizzle.loaded) maizzle.module.snapshot.releaseMaizzleSnapshot();
  await closeSharedCompileWorkerPool();
}
