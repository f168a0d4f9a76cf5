import { CompileError } from '@mailproof/engine/compile';
import type { CompileResult } from '@mailproof/engine/compile';
import { resolveLimits, type CompileOptions } from '../compile-limits';
import { IsolateFailure, runInIsolate } from '../isolate/run-in-isolate';
import { getJsxSnapshot } from './jsx-snapshot';
import { takeSourceMarkers } from '../source-markers';
import { transpileJsx } from './transpile-jsx';

// What @react-email/render prepends; renderToStaticMarkup emits no doctype.
const XHTML_DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** A React Email template: transpiled on the host, rendered in a fresh isolate with time and memory limits. */
export async function compileJsx(source: string, options?: CompileOptions): Promise<CompileResult> {
  const code = await transpileJsx(source, options?.files);
  const image = await getJsxSnapshot();
  const input = JSON.stringify({ code, props: options?.props ?? null });
  let outcome;
  try {
    outcome = await runInIsolate<string>({ image, entry: '__mailproofRenderJsx', input, limits: resolveLimits(options) });
  } catch (error) {
    if (error instanceof IsolateFailure) {
      throw new CompileError({ message: `The template was stopped: ${error.message}`, format: 'jsx' });
    }
    throw new CompileError({ message: error instanceof Error ? error.message : String(error), format: 'jsx' });
  }
  if (!outcome.ok) throw new CompileError({ message: outcome.message, format: 'jsx', line: outcome.line, column: outcome.column });
  const { html, sourcePositions } = takeSourceMarkers(`${XHTML_DOCTYPE}${stripImagePreloadLinks(outcome.value)}`);
  return { html, warnings: [], sourcePositions };
}

// React 19 adds <link rel="preload" as="image"> for every <img>; @react-email/render strips them too.
function stripImagePreloadLinks(html: string): string {
  return html.replace(/<link\s+rel="preload"\s+as="image"\s+href="[^"]*"\s*\/?>/g, '');
}
