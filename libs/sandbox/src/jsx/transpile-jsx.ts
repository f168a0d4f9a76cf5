import * as esbuild from 'esbuild';
import { CompileError, findSourceFile, sourceDirectory, type SourceFiles } from '@mailproof/engine/compile';
import { isAllowedJsxImport } from './jsx-allowed-imports';

const ALLOWED_IMPORTS_SUMMARY =
  'react, react/jsx-runtime, @react-email/components, @react-email/*, react-email, and relative imports of the files sent with the email';
/** The template's own file name in esbuild's output (its jsxDEV positions name it). */
export const JSX_ENTRY_FILE = 'email.tsx';
/** The namespace of modules read from the request's `files`; esbuild never resolves them on disk. */
const FILES_NAMESPACE = 'mailproof-files';
/** What a bundler tries after a relative specifier, in the order TypeScript projects expect. */
const MODULE_SUFFIXES = ['', '.tsx', '.ts', '.jsx', '.js', '.mjs', '.cjs', '.json', '/index.tsx', '/index.ts', '/index.jsx', '/index.js'];
const LOADERS: Record<string, esbuild.Loader> = {
  tsx: 'tsx',
  ts: 'ts',
  jsx: 'jsx',
  js: 'jsx',
  mjs: 'jsx',
  cjs: 'jsx',
  json: 'json',
  css: 'text',
  html: 'text',
  svg: 'text',
  txt: 'text',
};

/**
 * Every import is answered here, so esbuild never looks at the file system: allow-listed modules stay
 * external (the isolate provides them), relative imports resolve inside `files` (and are bundled, so they
 * run in the isolate with the template), anything else is an error at the import's position.
 */
function importsFromAllowListAndFiles(files: SourceFiles): esbuild.Plugin {
  return {
    name: 'mailproof-allow-listed-imports',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (isAllowedJsxImport(args.path)) return { path: args.path, external: true };
        if (/^\.\.?(\/|$)/.test(args.path)) {
          const fromDirectory = args.namespace === FILES_NAMESPACE ? sourceDirectory(args.importer) : '';
          const key = findSourceFile(files, fromDirectory, args.path, MODULE_SUFFIXES);
          if (key !== undefined) return { path: key, namespace: FILES_NAMESPACE };
          return {
            errors: [
              { text: `Import of "${args.path}" is not among the files sent with the email (send it in files, keyed by its path relative to the email)` },
            ],
          };
        }
        return { errors: [{ text: `Import of "${args.path}" is not allowed. Allowed imports: ${ALLOWED_IMPORTS_SUMMARY}` }] };
      });
      build.onLoad({ filter: /.*/, namespace: FILES_NAMESPACE }, (args) => {
        const extension = /\.([a-z]+)$/i.exec(args.path)?.[1]?.toLowerCase() ?? 'tsx';
        return { contents: files[args.path], loader: LOADERS[extension] ?? 'tsx' };
      });
    },
  };
}

/**
 * TSX/JSX source to CommonJS. esbuild only parses and prints here; it never runs the template.
 * Dynamic `import()` is lowered to `require()` so it meets the same allow-list inside the isolate.
 */
export async function transpileJsx(source: string, files: SourceFiles = {}): Promise<string> {
  try {
    const result = await esbuild.build({
      stdin: { contents: source, loader: 'tsx', sourcefile: JSX_ENTRY_FILE },
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      jsx: 'automatic',
      // jsxDEV calls carry each element's position ({ fileName, lineNumber, columnNumber }); the isolate's
      // jsxDEV marks the template's own elements with it (source-markers.ts).
      jsxDev: true,
      // Never read a tsconfig or package.json from the server's disk.
      tsconfigRaw: '{}',
      supported: { 'dynamic-import': false },
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [importsFromAllowListAndFiles(files)],
      logLevel: 'silent',
      sourcemap: false,
    });
    return result.outputFiles[0].text;
  } catch (error) {
    throw toCompileError(error);
  }
}

function toCompileError(error: unknown): CompileError {
  const failure = error as Partial<esbuild.BuildFailure>;
  const first = failure.errors?.[0];
  if (!first) return new CompileError({ message: 'The template could not be transpiled', format: 'jsx' });
  // A problem inside an imported file: name the file and its line; the position fields stay the email's own.
  const inImportedFile = first.location && first.location.file.startsWith(`${FILES_NAMESPACE}:`);
  if (inImportedFile) {
    const file = first.location!.file.slice(FILES_NAMESPACE.length + 1);
    return new CompileError({ message: `${file}:${first.location!.line}:${first.location!.column + 1}: ${first.text}`, format: 'jsx' });
  }
  return new CompileError({
    message: first.text,
    format: 'jsx',
    line: first.location?.line,
    column: first.location ? first.location.column + 1 : undefined,
  });
}
