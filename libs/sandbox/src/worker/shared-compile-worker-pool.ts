import { CompileWorkerPool } from './compile-worker-pool';

let pool: CompileWorkerPool | undefined;

/** One pool per process, shared by the mjml and maizzle compilers. */
export function sharedCompileWorkerPool(): CompileWorkerPool {
  if (!pool) pool = new CompileWorkerPool(1);
  return pool;
}

export async function closeSharedCompileWorkerPool(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.close();
}
