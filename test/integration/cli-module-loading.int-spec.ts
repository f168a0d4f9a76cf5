import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What the built `mailproof` command loads into its own process (docs/cli.md, "Start-up"): each command loads the
// code it needs when it runs. A preload script records every module of the process's require cache when it exits;
// the command itself runs as users run it (bin/mailproof.js, and the package's entry).
const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'cli');
// Unreachable services: the email commands must never need them.
const OFFLINE_ENV = { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none', REDIS_URL: 'redis://127.0.0.1:9', DATABASE_RETRY_ATTEMPTS: '1' };

/** The packages (by name) and the repository's own files (relative to dist/) a process loaded. */
interface Loaded {
  code: number | null;
  stdout: string;
  stderr: string;
  packages: Set<string>;
  files: string[];
}

let work: string;
let preload: string;
/** The package's entry as packages/cli/bin/mailproof.js calls it, from the compiled repository. */
let packageEntry: string[];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'mailproof-module-loading-'));
  preload = join(work, 'record-modules.js');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(process.env.MAILPROOF_TEST_MODULES_FILE, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  packageEntry = [join(work, 'package-bin.js')];
  writeFileSync(packageEntry[0], `require(${JSON.stringify(join(ROOT, 'dist', 'apps', 'cli', 'src', 'package-main.js'))}).main('0.0.0');\n`);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

function packageOf(file: string): string | null {
  const index = file.lastIndexOf('/node_modules/');
  if (index === -1) return null;
  const parts = file.slice(index + '/node_modules/'.length).split('/');
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

function run(entry: string[], args: string[]): Loaded {
  const modulesFile = join(work, `modules-${Math.random().toString(36).slice(2)}.json`);
  const result = spawnSync(process.execPath, ['--require', preload, ...entry, ...args], {
    cwd: FIXTURES,
    env: { ...OFFLINE_ENV, MAILPROOF_TEST_MODULES_FILE: modulesFile },
    encoding: 'utf8',
    // A deadline, not a speed target (a loaded 2-core machine).
    timeout: 180_000,
  });
  if (result.status === null) throw new Error(`mailproof ${args.join(' ')} was stopped (${result.signal}); stderr: ${result.stderr}`);
  const modules = JSON.parse(readFileSync(modulesFile, 'utf8')) as string[];
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    packages: new Set(modules.map(packageOf).filter((name): name is string => name !== null)),
    files: modules.filter((file) => file.includes('/dist/')).map((file) => file.slice(file.indexOf('/dist/') + '/dist/'.length)),
  };
}

const monorepoBin = [join(ROOT, 'bin', 'mailproof.js')];

/** The template compilers and what only they need: React Email, MJML, Maizzle's Tailwind, the isolate, esbuild. */
const COMPILERS = [
  'mjml',
  'react',
  'react-dom',
  '@react-email/components',
  'tailwindcss',
  'tailwindcss-preset-email',
  'juice',
  'yaml',
  'isolated-vm',
  'esbuild',
];
/** The server's frameworks, stores and queues, and the MCP SDK. */
const SERVER = ['@nestjs/core', '@nestjs/common', 'typeorm', 'pg', 'bullmq', 'ioredis', '@modelcontextprotocol/sdk', 'class-validator'];

describe('what a mailproof command loads', () => {
  it.each([['the monorepo command'], ['the package entry']])(
    'an HTML lint (%s) loads no template compiler, no sandbox compiler file and no server code',
    (name) => {
      const result = run(name === 'the monorepo command' ? monorepoBin : packageEntry, ['lint', 'with-errors.html']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(1); // with-errors.html has an error finding: the lint ran to the end
      expect(result.stdout).toMatch(/1 file: 1 error/);
      expect(result.packages.has('parse5')).toBe(true); // the engine did run
      for (const name of [...COMPILERS, ...SERVER]) expect({ name, loaded: result.packages.has(name) }).toEqual({ name, loaded: false });
      // The sandbox's list of allowed JSX imports is a table; no compiler code of any format is loaded.
      expect(result.files.filter((file) => /libs\/sandbox\/src\/(jsx\/(?!jsx-allowed-imports)|mjml\/|maizzle\/|isolate\/|worker\/)/.test(file))).toEqual([]);
      // The plan names (for the account command's help) are a table; no database, queue or configuration code is loaded.
      expect(result.files.filter((file) => /libs\/(persistence\/src\/(?!plans\.js)|queue\/|config\/|mcp\/)/.test(file))).toEqual([]);
    },
  );

  it('an .eml lint parses the message without any template compiler', () => {
    const result = run(monorepoBin, ['lint', 'spring-sale.eml']);
    expect(result.stdout).toContain('spring-sale.eml');
    expect(result.packages.has('postal-mime')).toBe(true);
    for (const name of COMPILERS) expect({ name, loaded: result.packages.has(name) }).toEqual({ name, loaded: false });
  });

  it('--version and --help load no template compiler and no server code', () => {
    for (const args of [['--version'], ['--help']]) {
      const result = run(monorepoBin, args);
      expect(result.code).toBe(0);
      for (const name of [...COMPILERS, ...SERVER]) expect({ args, name, loaded: result.packages.has(name) }).toEqual({ args, name, loaded: false });
    }
  });

  it('an MJML lint bundles its compile process with esbuild and still loads no JSX or Maizzle compiler into the command', () => {
    const result = run(monorepoBin, ['lint', 'newsletter.mjml', '--clients', 'gmail-web']);
    expect(result.stdout).toContain('newsletter.mjml (mjml');
    // The compile itself runs in a compile process: the command only bundled that process's code.
    expect(result.packages.has('esbuild')).toBe(true);
    for (const name of ['react', 'react-dom', 'tailwindcss', 'isolated-vm', ...SERVER])
      expect({ name, loaded: result.packages.has(name) }).toEqual({ name, loaded: false });
  });

  it('an operator command loads the database code when it runs', () => {
    const result = run(monorepoBin, ['account', 'list', '--json']);
    expect(result.code).toBe(1); // nothing listens on the database's port
    expect(result.packages.has('typeorm')).toBe(true);
    expect(result.packages.has('pg')).toBe(true);
  });
});

describe('mailproof compilers', () => {
  it("prints the npm specs of the emails' formats' compilers: all of them with --all, only the missing ones (none here) without", () => {
    const all = run(monorepoBin, ['compilers', '--all', 'clean.html', 'newsletter.mjml', 'welcome.tsx', 'spring-sale.eml']);
    expect(all.code).toBe(0);
    const specs = all.stdout.trim().split(' ');
    expect(specs).toEqual(expect.arrayContaining(['mjml@5.4.1', 'esbuild@0.28.2', 'react@19.3.1', 'react-dom@19.3.1', '@react-email/components@1.0.12']));
    expect(specs.filter((spec) => spec.startsWith('esbuild@'))).toHaveLength(1);
    expect(specs.some((spec) => spec.startsWith('tailwindcss'))).toBe(false); // no Maizzle email among them
    const missing = run(monorepoBin, ['compilers', 'newsletter.mjml', 'welcome.tsx']);
    expect({ code: missing.code, stdout: missing.stdout }).toEqual({ code: 0, stdout: '' });
    // Against a server only reading a JSX email's local imports happens here, with esbuild.
    const server = run(monorepoBin, ['compilers', '--server', '--all', 'newsletter.mjml', 'welcome.tsx', 'front-matter.html']);
    expect(server.stdout.trim()).toBe('esbuild@0.28.2');
    // front-matter.html is Maizzle by its content.
    expect(run(monorepoBin, ['compilers', '--all', 'front-matter.html']).stdout).toContain('tailwindcss@3.4.19');
  });
});
