import { CompileError, checkSourceFiles, isCompileFormat, normalizeSourceFiles } from '@mailproof/engine/compile';
import type { CompileFormat, CompileResult } from '@mailproof/engine/compile';
import { parseMessage } from '@mailproof/engine/message';
import { COMPILE_LIMITS, type CompileOptions } from './compile-limits';
import { sharedCompileProcessPool } from './process/shared-compile-process-pool';

/**
 * Compiles an email in any supported format to HTML (a message, eml: its decoded HTML part). Templates (jsx, mjml, maizzle) compile in a
 * compile process, so a template that kills its sandbox kills only that process. Every failure is a
 * CompileError carrying the compiler's message and, where known, its line; never a server path or a stack.
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
  const problems = checkSourceFiles(options?.files, bytes);
  if (problems.length > 0) throw new CompileError({ message: problems.map((problem) => problem.message).join('; '), format });
  if (format === 'html') return { html: source, warnings: [] };
  // A message is parsed, not run: no sandbox (the parse is bounded by scanMessage, docs/messages.md).
  if (format === 'eml') {
    const message = await parseMessage(source);
    return { html: message.html.content, warnings: [], message };
  }
  const files = normalizeSourceFiles(options?.files);
  return sharedCompileProcessPool().compile(source, format, { ...options, files });
}
