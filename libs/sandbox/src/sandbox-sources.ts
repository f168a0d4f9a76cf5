import path from 'node:path';
import type * as Esbuild from 'esbuild';

/**
 * Where the sandbox's own source files are, for the code it bundles with esbuild at run time (the
 * compile worker, the Maizzle engine, the compile process). This is the only file of the sandbox that
 * reads `__dirname`/`__filename`: the compile process runs a bundle of this library, and its bundler
 * pins these two names to this file's real location so every path below stays right inside it.
 */
export const SANDBOX_SOURCE_ROOT = __dirname;

/** This file itself: a `require` created from it resolves packages as the sandbox's own modules do. */
export const SANDBOX_SOURCE_ANCHOR = __filename;

/** `.ts` under jest and ts-node, `.js` once compiled to dist: esbuild bundles either. */
const SOURCE_EXTENSION = path.extname(__filename) === '.ts' ? '.ts' : '.js';

/** A source file of the sandbox by its path under `src/`, without extension (e.g. `worker/compile.worker`). */
export function sandboxSourceFile(relativePathWithoutExtension: string): string {
  return path.join(SANDBOX_SOURCE_ROOT, `${relativePathWithoutExtension}${SOURCE_EXTENSION}`);
}

/**
 * Bundles one of the sandbox's entry files for Node with esbuild, from its TypeScript (jest) or
 * compiled JavaScript (dist) source, so the same path works in tests and production without a build
 * step. Packages stay external and resolve from the sandbox's own location. `__dirname`/`__filename`
 * are pinned to this file, so code in the bundle that bundles further entries finds their sources.
 * The result is a script (not a module) for `new Worker(code, { eval: true })` or `vm.runInThisContext`.
 */
export async function bundleSandboxEntry(relativePathWithoutExtension: string): Promise<string> {
  // Loaded on the first template compile, not with the sandbox: an HTML or .eml email never needs esbuild, and
  // the command-line package installs it only with a template format's compilers (docs/cli.md, "The package").
  // A plain require: this file is itself bundled into the compile process, whose script cannot run import().
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above), and import() cannot run in the bundled compile process
  const esbuild = require('esbuild') as typeof Esbuild;
  const result = await esbuild.build({
    entryPoints: [sandboxSourceFile(relativePathWithoutExtension)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
    define: { __dirname: JSON.stringify(SANDBOX_SOURCE_ROOT), __filename: JSON.stringify(SANDBOX_SOURCE_ANCHOR) },
  });
  const anchor = JSON.stringify(SANDBOX_SOURCE_ANCHOR);
  return `(function (require, module, exports) {\n${result.outputFiles[0].text}\n})(require('node:module').createRequire(${anchor}), { exports: {} }, {});`;
}
