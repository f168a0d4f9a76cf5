import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/** The repository's root. */
export const ROOT = resolve(__dirname, '..', '..');

/** Whether a file is a test of any tier (a spec, int-spec, e2e-spec or scale-spec). */
export function isTestFile(file: string): boolean {
  return /\.(spec|int-spec|e2e-spec|scale-spec)\.tsx?$/.test(file);
}

/** Every TypeScript file under `dir`, tests included (node_modules skipped). */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * What a file imports: import and export-from declarations, bare `import 'x'`, `require('x')` and `import('x')`,
 * as TypeScript's own pre-processor reads them (so imports named in comments or strings do not count).
 */
export function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

const compilerOptions = parsedConfig('tsconfig.json').options;
const resolutionCache = ts.createModuleResolutionCache(ROOT, (name) => name, compilerOptions);

/** The repository file an import resolves to (through the `@mailproof/*` paths too); undefined for a package. */
export function resolveImport(specifier: string, fromFile: string): string | undefined {
  const resolved = ts.resolveModuleName(specifier, fromFile, compilerOptions, ts.sys, resolutionCache).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport || resolved.resolvedFileName.includes('/node_modules/')) return undefined;
  return resolve(resolved.resolvedFileName);
}

/** The files `tsc -p tsconfig.build.json` starts from: what `npm run build` compiles into dist/. */
export function buildRootFiles(): string[] {
  return parsedConfig('tsconfig.build.json').fileNames.map((file) => resolve(file));
}

function parsedConfig(name: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, name), {}, configHost());
  if (!parsed) throw new Error(`${name} could not be read`);
  return parsed;
}

function configHost(): ts.ParseConfigFileHost {
  return {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  };
}
