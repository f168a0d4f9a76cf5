import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { CompileFormat } from '@mailproof/engine/compile';
import { CliError } from './cli-errors';

/**
 * The packages each input format compiles with beyond the base of the command-line package. HTML and .eml
 * need none; each template format brings its compiler, esbuild (the compile process is bundled at run time)
 * and, for JSX and Maizzle, isolated-vm (their sandbox). @mailproof/cli declares every one of them as an
 * optional peer dependency at exactly these versions, so the base install stays small and a user installs
 * the compilers of the formats they write (docs/cli.md, "The package"; scripts/build-cli-package.js checks
 * that this table and packages/cli/package.json agree).
 */
export const FORMAT_PACKAGES: Readonly<Record<CompileFormat, readonly string[]>> = {
  html: [],
  eml: [],
  mjml: ['mjml', 'esbuild'],
  jsx: ['react', 'react-dom', '@react-email/components', 'esbuild', 'isolated-vm'],
  maizzle: ['tailwindcss', 'tailwindcss-preset-email', 'juice', 'yaml', 'esbuild', 'isolated-vm'],
};

/** The version of each compiler package, as tested in the repository. isolated-vm has one release per Node line. */
export const COMPILER_PACKAGE_VERSIONS: Readonly<Record<string, string>> = {
  mjml: '5.4.1',
  esbuild: '0.28.2',
  react: '19.3.1',
  'react-dom': '19.3.1',
  '@react-email/components': '1.0.12',
  tailwindcss: '3.4.19',
  'tailwindcss-preset-email': '1.4.2',
  juice: '11.1.1',
  yaml: '2.9.1',
  'isolated-vm': '5.0.4 || 6.2.0',
};

const FORMAT_NAMES: Readonly<Record<CompileFormat, string>> = { html: 'HTML', eml: '.eml', mjml: 'MJML', jsx: 'React Email (JSX)', maizzle: 'Maizzle' };

function nodeMajor(version: string): number {
  return Number(version.split('.')[0]);
}

/**
 * The npm spec that installs a compiler package for this Node: isolated-vm 5.x builds for Node 20 (and 22) but
 * not against Node 24's V8; 6.x ships binaries for Node 22 and later (libs/sandbox/src/isolate/isolated-vm.ts).
 */
export function installSpec(name: string, nodeVersion: string = process.versions.node): string {
  if (name === 'isolated-vm') return nodeMajor(nodeVersion) >= 22 ? 'isolated-vm@6.2.0' : 'isolated-vm@5.0.4';
  return `${name}@${COMPILER_PACKAGE_VERSIONS[name]}`;
}

/** Those of `names` that do not resolve from the command's own location. */
export function missingPackages(names: readonly string[]): string[] {
  return names.filter((name) => !installed(name, require.resolve));
}

/** Whether a package resolves from the command's own location (as the sandbox resolves it). isolated-vm may be the Node 22+ alias. */
function installed(name: string, resolve: (request: string) => string): boolean {
  const candidates = name === 'isolated-vm' && nodeMajor(process.versions.node) >= 22 ? ['isolated-vm-node22', 'isolated-vm'] : [name];
  return candidates.some((candidate) => {
    try {
      resolve(candidate);
      return true;
    } catch {
      return false;
    }
  });
}

/** The package's own manifest when this code runs from the installed @mailproof/cli (null in the repository). */
function ownPackage(): { version: string; folder: string } | null {
  for (let folder = __dirname; dirname(folder) !== folder; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name === '@mailproof/cli' && version) return { version, folder };
  }
  return null;
}

/** The exact command that installs `specs` beside the command line: npm install, or npx's `--package` when npx runs it. */
export function installCommand(specs: readonly string[]): string {
  const own = ownPackage();
  if (own && own.folder.includes(`${sep}_npx${sep}`)) {
    return `npx --package=@mailproof/cli@${own.version} ${specs.map((spec) => `--package=${spec}`).join(' ')} mailproof …`;
  }
  return `npm install ${specs.join(' ')}`;
}

/**
 * Refuses, with the exact install command, an email whose format's compilers are not installed, before
 * anything is compiled. `label` names the input as messages do.
 */
export function requireFormatCompilers(format: CompileFormat, label: string): void {
  requirePackages(FORMAT_PACKAGES[format], label, `${FORMAT_NAMES[format]} emails compile with`);
}

/**
 * Refuses, with the exact install command, work that needs `names` when one of them is not installed (`gate`
 * reads a JSX email's local imports with esbuild, and needs only esbuild: the server compiles).
 */
export function requirePackages(names: readonly string[], label: string, purpose: string): void {
  const missing = missingPackages(names);
  if (missing.length === 0) return;
  throw new CliError(
    `${label}: ${purpose} packages that @mailproof/cli installs on demand, and ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed. ` +
      `Install ${names.length === 1 ? 'it' : 'them'} where @mailproof/cli is installed: ${installCommand(names.map((name) => installSpec(name)))}`,
    'compile',
  );
}
