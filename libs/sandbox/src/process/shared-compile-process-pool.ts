import { CompileProcessPool, DEFAULT_COMPILE_PROCESS_OPTIONS, type CompileProcessPoolOptions } from './compile-process-pool';

let options: CompileProcessPoolOptions = DEFAULT_COMPILE_PROCESS_OPTIONS;
let pool: CompileProcessPool | undefined;

/** One pool of compile processes per host process, used by compileEmail. */
export function sharedCompileProcessPool(): CompileProcessPool {
  if (!pool) pool = new CompileProcessPool(options);
  return pool;
}

/** Sets the pool's size and limits; takes effect for the next pool (call before the first compile). */
export function configureSharedCompileProcessPool(overrides: Partial<CompileProcessPoolOptions>): void {
  options = { ...options, ...overrides };
}

export async function closeSharedCompileProcessPool(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.close();
}
