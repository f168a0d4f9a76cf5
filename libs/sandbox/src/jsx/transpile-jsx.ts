import * as esbuild from 'esbuild';
import { CompileError } from '@mailproof/engine/compile';
import { isAllowedJsxImport } from './jsx-allowed-imports';

const ALLOWED_IMPORTS_SUMMARY = 'react, react/jsx-runtime, @react-email/components, @react-email/*, react-email';

/**
 * Every import is answered here, so esbuild never looks at the file system: allow-listed modules stay
 * external (the isolate provides them), anything else is an error at the import's position.
 */
const allowListedImportsOnly: esbuild.Plugin = {
  name: 'mailproof-allow-listed-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (isAllowedJsxImport(args.path)) return { path: args.path, external: true };
      return {
        errors: [{ text: `Import of "${args.path}" is not allowed. Allowed imports: ${ALLOWED_IMPORTS_SUMMARY}` }],
      };
    });
  },
};

/**
 * TSX/JSX source to CommonJS. esbuild only parses and prints here; it never runs the template.
 * Dynamic `import()` is lowered to `require()` so it meets the same allow-list inside the isolate.
 */
export async function transpileJsx(source: string): Promise<string> {
  try {
    const result = await esbuild.build({
      stdin: { contents: source, loader: 'tsx', sourcefile: 'email.tsx' },
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      jsx: 'automatic',
      // Never read a tsconfig or package.json from the server's disk.
      tsconfigRaw: '{}',
      supported: { 'dynamic-import': false },
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [allowListedImportsOnly],
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
  return new CompileError({
    message: first.text,
    format: 'jsx',
    line: first.location?.line,
    column: first.location ? first.location.column + 1 : undefined,
  });
}
