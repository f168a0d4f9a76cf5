import juice from 'juice';
import postcss from 'postcss';
import tailwindcss from 'tailwindcss';
import type { Config } from 'tailwindcss';
import type { CompileWorkerResponse, MaizzleCssConfig } from '../worker/compile-worker-protocol';
import { toSafeClassNames } from './safe-class-names';

// tailwindcss-preset-email ships no types; it is a plain Tailwind preset object (px units, max-width screens).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the preset is CommonJS without types
const emailPreset = require('tailwindcss-preset-email') as Partial<Config>;

type CssOutcome = Omit<Extract<CompileWorkerResponse, { ok: true }>, 'id'> | Omit<Extract<CompileWorkerResponse, { ok: false }>, 'id'>;

const STYLE_BLOCK = /<style\b([^>]*)>([\s\S]*?)<\/style\s*>/gi;
const NEEDS_TAILWIND = /@tailwind|@apply|@layer|@screen|@config|\btheme\(|\bscreen\(/;
const DEFAULT_TAILWIND_CSS = '@tailwind components;\n@tailwind utilities;';

/**
 * Maizzle's CSS pipeline, the way Maizzle 5 runs it: Tailwind 3 with the email preset over every
 * <style> that uses Tailwind, content taken from the template itself, then juice inlining (media
 * queries and pseudo-classes kept in <style>), then Maizzle's safe class names (`sm:w-full` →
 * `sm-w-full`). Runs inside the compile worker. Nothing here fetches: plain `juice()` never loads
 * linked stylesheets, and Tailwind's content is the raw HTML string, not files.
 */
export async function compileMaizzleCssInWorker(html: string, config: MaizzleCssConfig): Promise<CssOutcome> {
  try {
    const tailwindConfig: Config = {
      presets: [emailPreset as Config],
      content: [{ raw: html, extension: 'html' }],
      corePlugins: { preflight: false },
      theme: { extend: (config.themeExtend ?? {}) as Config['theme'] },
    };
    const processor = postcss([tailwindcss(tailwindConfig)]);
    let withTailwind = html;
    if (!NEEDS_TAILWIND.test(styleContents(html))) withTailwind = injectDefaultStyle(html);
    const blocks = [...withTailwind.matchAll(STYLE_BLOCK)];
    let output = '';
    let last = 0;
    for (const block of blocks) {
      const [whole, attributes, css] = block;
      const start = block.index ?? 0;
      output += withTailwind.slice(last, start);
      last = start + whole.length;
      if (/\b(raw|tailwind\s*=\s*["']?false)/i.test(attributes) || !NEEDS_TAILWIND.test(css)) {
        output += whole;
        continue;
      }
      const result = await processor.process(css, { from: undefined });
      output += `<style${attributes}>${result.css}</style>`;
    }
    output += withTailwind.slice(last);
    const inlined = juice(output, {
      preserveMediaQueries: true,
      preservePseudos: true,
      preserveImportant: true,
      preserveFontFaces: true,
      preserveKeyFrames: true,
      applyWidthAttributes: true,
      applyHeightAttributes: true,
      removeStyleTags: true,
      insertPreservedExtraCss: true,
      xmlMode: false,
    });
    return { ok: true, html: toSafeClassNames(inlined), warnings: [] };
  } catch (error) {
    const cssError = error as { reason?: string; message?: string; line?: number };
    return { ok: false, message: `CSS: ${cssError.reason ?? cssError.message ?? String(error)}` };
  }
}

function styleContents(html: string): string {
  return [...html.matchAll(STYLE_BLOCK)].map((match) => match[2]).join('\n');
}

// A template without a Tailwind <style> (no layout) still gets its utility classes compiled.
function injectDefaultStyle(html: string): string {
  const style = `<style>\n${DEFAULT_TAILWIND_CSS}\n</style>`;
  if (/<\/head\s*>/i.test(html)) return html.replace(/<\/head\s*>/i, `${style}\n</head>`);
  return `${style}\n${html}`;
}
