import { CompileError, isCompileFormat } from '@mailproof/engine/compile';
import type { CompileFormat, CompileResult } from '@mailproof/engine/compile';
import { COMPILE_LIMITS, type CompileOptions } from './compile-limits';
import { compileJsx } from './jsx/compile-jsx';
import { compileMaizzle } from './maizzle/compile-maizzle';
import { compileMjml } from './mjml/compile-mjml';

/**
 * Compiles an email in any supported format to HTML. Every failure is a CompileError carrying the
 * compiler's message and, where known, its line; never a server path or a stack.
 */
export async function compileEmail(source: string, format: CompileFormat, options?: CompileOptions): Promise<CompileResult> {
  if (!isCompileFormat(format)) {
    throw new CompileError({ message: `Unknown format "${String(format)}"`, format: 'html' });
  }
  if (typeof source !== 'string') throw new CompileError({ message: 'The source must be a string', format });
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > COMPILE_LIMITS.maxSourceBytes) {
    throw new CompileError({ message: `The source is ${bytes} bytes; the limit is ${COMPILE_LIMITS.maxSourceBytes}`, format });
  }
  try {
    switch (format) {
      case 'html':
        return { html: source, warnings: [] };
      case 'mjml':
        return await compileMjml(source, options);
      case 'jsx':
        return await compileJsx(source, options);
      case 'maizzle':
        return await compileMaizzle(source, options);
    }
  } catch (error) {
    if (error instanceof CompileError) throw error;
    // A bug or an infrastructure failure: still a CompileError, with a sanitised message.
    throw new CompileError({ message: error instanceof Error ? error.message : String(error), format });
  }
}
