import { existsSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type * as esbuild from 'esbuild';
import { SOURCE_FILES_LIMITS, checkSourceFiles, utf8Length, type CompileFormat, type SourceFiles } from '@mailproof/engine/compile';
import { CliError } from './cli-errors';
import { requirePackages } from './format-compilers';

/** What marks the top of an email's project: imports are read from this folder and below, never above. */
const PROJECT_MARKERS = ['package.json', '.git'];
const JSX_SUFFIXES = ['', '.tsx', '.ts', '.jsx', '.js', '.mjs', '.cjs', '.json', '/index.tsx', '/index.ts', '/index.jsx', '/index.js'];
/** Where Maizzle 5 looks for `<x-name>` components, under the project root (as the sandbox resolves them). */
const MAIZZLE_COMPONENT_FOLDERS = ['components', 'layouts', 'emails', 'src/components', 'src/layouts', 'src/templates'];

/**
 * The nearest folder above the email (or its own) that holds a package.json or .git; the email's own
 * folder when there is none.
 */
export function projectFolderOf(emailPath: string): string {
  const start = dirname(resolve(emailPath));
  for (let folder = start; ; folder = dirname(folder)) {
    if (PROJECT_MARKERS.some((marker) => existsSync(join(folder, marker)))) return folder;
    if (dirname(folder) === folder) return start;
  }
}

/**
 * Reads the local files an email imports, as the sandbox will resolve them: JSX relative imports
 * (followed through the imported files), MJML `mj-include`, Maizzle `<extends>`/`<component>`/`<x-name>`.
 * Only files inside the email's project folder are read (symbolic links are followed, then checked);
 * an import that is not found there is left out, and the compiler reports it at its line. Keys are
 * paths relative to the email's folder, as the API's `files` expects.
 */
export async function readLocalImports(emailPath: string, source: string, format: CompileFormat): Promise<SourceFiles> {
  if (format === 'html') return {};
  const reader = new ProjectReader(emailPath, Buffer.byteLength(source, 'utf8'));
  await reader.init();
  if (format === 'jsx') {
    requirePackages(['esbuild'], emailPath, 'reading the local imports of a JSX email needs');
    await reader.collectJsx(source);
  } else if (format === 'mjml') await reader.collectMjml(resolve(emailPath), source);
  else await reader.collectMaizzle(resolve(emailPath), source);
  const problems = checkSourceFiles(reader.files, reader.emailBytes);
  if (problems.length > 0)
    throw new CliError(`${emailPath}: its local imports cannot be sent: ${problems.map((problem) => problem.message).join('; ')}`, 'limit');
  return reader.files;
}

class ProjectReader {
  /** No prototype: a file named `__proto__` stays a file name. */
  readonly files: SourceFiles = Object.create(null) as SourceFiles;
  private root = '';
  private readonly emailFolder: string;
  private totalBytes: number;

  constructor(
    emailPath: string,
    readonly emailBytes: number,
  ) {
    this.emailFolder = dirname(resolve(emailPath));
    this.totalBytes = emailBytes;
  }

  async init(): Promise<void> {
    this.root = await realpath(projectFolderOf(join(this.emailFolder, 'email')));
  }

  /** The file's text when it exists inside the project (after following links); undefined otherwise. */
  private async read(absolutePath: string): Promise<{ key: string; text: string } | undefined> {
    let real: string;
    try {
      real = await realpath(absolutePath);
      if (!(await stat(real)).isFile()) return undefined;
    } catch {
      return undefined;
    }
    const inside = relative(this.root, real);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
    const key = relative(this.emailFolder, absolutePath).split(sep).join('/');
    if (this.files[key] !== undefined) return { key, text: this.files[key] };
    if (Object.keys(this.files).length >= SOURCE_FILES_LIMITS.maxFiles) throw this.tooMany();
    const text = await readFile(real, 'utf8');
    this.totalBytes += utf8Length(text);
    if (this.totalBytes > SOURCE_FILES_LIMITS.maxTotalBytes) {
      throw new CliError(`the email and its local imports are over ${SOURCE_FILES_LIMITS.maxTotalBytes} bytes together (at ${key})`, 'limit');
    }
    this.files[key] = text;
    return { key, text };
  }

  private tooMany(): CliError {
    return new CliError(`the email imports more than ${SOURCE_FILES_LIMITS.maxFiles} local files`, 'limit');
  }

  private async firstExisting(base: string, suffixes: readonly string[]): Promise<{ key: string; text: string } | undefined> {
    for (const suffix of suffixes) {
      const found = await this.read(`${base}${suffix}`);
      if (found) return found;
    }
    return undefined;
  }

  /** esbuild walks the imports (it parses TSX); every relative one is read from disk here, inside the project. */
  async collectJsx(source: string): Promise<void> {
    const plugin: esbuild.Plugin = {
      name: 'mailproof-collect-local-imports',
      setup: (build) => {
        build.onResolve({ filter: /.*/ }, async (args) => {
          if (args.kind === 'entry-point') return undefined;
          if (!/^\.\.?(\/|$)/.test(args.path)) return { path: args.path, external: true };
          const found = await this.firstExisting(resolve(args.resolveDir, args.path), JSX_SUFFIXES);
          // Not found: the sandbox reports it at the import's line.
          if (!found) return { path: args.path, external: true };
          return { path: resolve(this.emailFolder, found.key), namespace: 'local' };
        });
        build.onLoad({ filter: /.*/, namespace: 'local' }, (args) => {
          const key = relative(this.emailFolder, args.path).split(sep).join('/');
          const extension = /\.([a-z]+)$/i.exec(args.path)?.[1]?.toLowerCase();
          const loader: esbuild.Loader =
            extension === 'json'
              ? 'json'
              : extension === 'ts'
                ? 'ts'
                : extension === 'js' || extension === 'mjs' || extension === 'cjs' || extension === 'jsx'
                  ? 'jsx'
                  : 'tsx';
          return { contents: this.files[key], loader, resolveDir: dirname(args.path) };
        });
      },
    };
    // Loaded for a JSX email only (docs/cli.md, "The package": esbuild comes with the JSX compilers).
    const { build } = await import('esbuild');
    try {
      await build({
        stdin: { contents: source, loader: 'tsx', resolveDir: this.emailFolder, sourcefile: 'email.tsx' },
        bundle: true,
        write: false,
        platform: 'neutral',
        jsx: 'automatic',
        tsconfigRaw: '{}',
        logLevel: 'silent',
        plugins: [plugin],
      });
    } catch (error) {
      if (error instanceof CliError) throw error;
      // Syntax errors: the compiler reports them with their line; the files read so far are still sent.
    }
  }

  async collectMjml(filePath: string, text: string, depth = 0): Promise<void> {
    if (depth > 10) return;
    for (const match of text.matchAll(/<mj-include\b[^>]*?\bpath\s*=\s*(?:"([^"]*)"|'([^']*)')[^>]*>/gi)) {
      const path = match[1] ?? match[2] ?? '';
      const isMjml = !/\btype\s*=\s*["'](css|html)["']/i.test(match[0]);
      const found = await this.firstExisting(resolve(dirname(filePath), path), isMjml ? ['', '.mjml'] : ['']);
      if (found && isMjml) await this.collectMjml(resolve(this.emailFolder, found.key), found.text, depth + 1);
    }
  }

  async collectMaizzle(filePath: string, text: string, depth = 0): Promise<void> {
    if (depth > 20) return;
    const candidates: Array<{ path: string; suffixes: string[] }> = [];
    for (const match of text.matchAll(/<(?:extends|component)\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
      candidates.push({ path: (match[1] ?? match[2] ?? '').trim(), suffixes: ['', '.html'] });
    }
    for (const match of text.matchAll(/<x-([\w.-]+)/g)) {
      const path = match[1].split('.').join('/');
      for (const folder of MAIZZLE_COMPONENT_FOLDERS) candidates.push({ path: `${folder}/${path}`, suffixes: ['.html', '/index.html'] });
    }
    for (const candidate of candidates) {
      if (candidate.path === '' || isAbsolute(candidate.path)) continue;
      // A src is a path from the project root; the sandbox tries the file's folder and each folder above it.
      for (let folder = dirname(filePath); ; folder = dirname(folder)) {
        const found = await this.firstExisting(resolve(folder, candidate.path), candidate.suffixes);
        if (found) {
          await this.collectMaizzle(resolve(this.emailFolder, found.key), found.text, depth + 1);
          break;
        }
        if (folder === this.root || dirname(folder) === folder || relative(this.root, folder).startsWith('..')) break;
      }
    }
  }
}
