import { releaseJsxSnapshot, getJsxSnapshot } from './jsx/jsx-snapshot';
import { releaseMaizzleSnapshot, getMaizzleSnapshot } from './maizzle/maizzle-snapshot';
import { closeSharedCompileWorkerPool, sharedCompileWorkerPool } from './worker/shared-compile-worker-pool';
import { COMPILE_LIMITS } from './compile-limits';

/**
 * Builds the isolate snapshots and starts the compile worker (with mjml and Tailwind loaded), so the
 * first request does not pay ~1 s of cold start. Optional: everything is also built on first use.
 */
export async function warmCompilers(): Promise<void> {
  await Promise.all([
    getJsxSnapshot(),
    getMaizzleSnapshot(),
    sharedCompileWorkerPool().run({ kind: 'warm' }, COMPILE_LIMITS.maxTimeoutMs * 2),
  ]);
}

/** Releases the snapshots and terminates the compile worker threads; call on shutdown. Safe to call twice. */
export async function disposeCompilers(): Promise<void> {
  releaseJsxSnapshot();
  releaseMaizzleSnapshot();
  await closeSharedCompileWorkerPool();
}
