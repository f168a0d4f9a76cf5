import { CompileError } from '@mailproof/engine/compile';
import type { CompileResult, CompileWarning } from '@mailproof/engine/compile';
import { resolveLimits, type CompileOptions } from '../compile-limits';
import { IsolateFailure, runInIsolate } from '../isolate/run-in-isolate';
import { CompileWorkerFailure } from '../worker/compile-worker-pool';
import { sharedCompileWorkerPool } from '../worker/shared-compile-worker-pool';
import { takeSourceMarkers } from '../source-markers';
import { parseMaizzleFrontMatter } from './maizzle-front-matter';
import { getMaizzleSnapshot } from './maizzle-snapshot';

interface ExpandedTemplate {
  html: string;
  warnings: CompileWarning[];
}

/**
 * A Maizzle 5 template in two sandboxed steps: the template (expressions are JavaScript) is expanded
 * inside a fresh isolate, then the resulting HTML goes through Tailwind and juice in the compile worker.
 * The time limit covers both steps together.
 */
export async function compileMaizzle(source: string, options?: CompileOptions): Promise<CompileResult> {
  const limits = resolveLimits(options);
  const startedAt = Date.now();
  const frontMatter = parseMaizzleFrontMatter(source);
  const image = await getMaizzleSnapshot();
  const input = JSON.stringify({ template: frontMatter.body, page: frontMatter.data, lineOffset: frontMatter.bodyLineOffset, files: options?.files ?? {} });
  let expanded;
  try {
    expanded = await runInIsolate<ExpandedTemplate>({ image, entry: '__mailproofExpandMaizzle', input, limits });
  } catch (error) {
    if (error instanceof IsolateFailure) throw new CompileError({ message: `The template was stopped: ${error.message}`, format: 'maizzle' });
    throw new CompileError({ message: error instanceof Error ? error.message : String(error), format: 'maizzle' });
  }
  if (!expanded.ok) throw new CompileError({ message: expanded.message, line: expanded.line, column: expanded.column, format: 'maizzle' });
  const remainingMs = Math.max(50, limits.timeoutMs - (Date.now() - startedAt));
  let styled;
  try {
    // The blank line left by the front matter is not part of the email.
    styled = await sharedCompileWorkerPool().run({ kind: 'maizzle-css', html: expanded.value.html.trimStart(), config: {} }, remainingMs);
  } catch (error) {
    if (error instanceof CompileWorkerFailure) throw new CompileError({ message: `The CSS compiler was stopped: ${error.message}`, format: 'maizzle' });
    throw error;
  }
  if (!styled.ok) throw new CompileError({ message: styled.message, line: styled.line, column: styled.column, format: 'maizzle' });
  const { html, sourcePositions } = takeSourceMarkers(styled.html);
  return { html, warnings: [...expanded.value.warnings, ...styled.warnings], sourcePositions };
}
