import { CompileError } from '@mailproof/engine/compile';
import type { CompileResult } from '@mailproof/engine/compile';
import { resolveLimits, type CompileOptions } from '../compile-limits';
import { CompileWorkerFailure } from '../worker/compile-worker-pool';
import { sharedCompileWorkerPool } from '../worker/shared-compile-worker-pool';

/** MJML 5 in the compile worker; validation problems are warnings ('soft', default) or errors ('strict'). */
export async function compileMjml(source: string, options?: CompileOptions): Promise<CompileResult> {
  const { timeoutMs } = resolveLimits(options);
  let response;
  try {
    response = await sharedCompileWorkerPool().run({ kind: 'mjml', source, validation: options?.mjmlValidation ?? 'soft', files: options?.files }, timeoutMs);
  } catch (error) {
    if (error instanceof CompileWorkerFailure) throw new CompileError({ message: `The MJML compiler was stopped: ${error.message}`, format: 'mjml' });
    throw error;
  }
  if (!response.ok) throw new CompileError({ message: response.message, line: response.line, column: response.column, format: 'mjml' });
  return { html: response.html, warnings: response.warnings, sourcePositions: response.sourcePositions ?? [] };
}
