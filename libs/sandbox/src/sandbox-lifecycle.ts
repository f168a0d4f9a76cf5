import type { CompileProcessPoolOptions } from './process/compile-process-pool';
import { closeSharedCompileProcessPool, configureSharedCompileProcessPool, sharedCompileProcessPool } from './process/shared-compile-process-pool';

/**
 * Sets how many compile processes run and their hard memory cap. Call before the first compile (a
 * worker passes its job concurrency, so every job in flight has a process of its own).
 */
export function configureCompilers(options: Partial<CompileProcessPoolOptions>): void {
  configureSharedCompileProcessPool(options);
}

/**
 * Starts the compile processes and waits until each has built its isolate snapshots and loaded mjml
 * and Tailwind, so the first request does not pay ~1 s of cold start. Optional: a compile also starts
 * a process on first use.
 */
export async function warmCompilers(): Promise<void> {
  await sharedCompileProcessPool().warm();
}

/** Ends the compile processes; call on shutdown. Safe to call twice. */
export async function disposeCompilers(): Promise<void> {
  await closeSharedCompileProcessPool();
}
