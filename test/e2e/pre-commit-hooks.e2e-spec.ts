import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { packCliPackage, runProcess } from '../utils/cli-package';

/**
 * The repository's .pre-commit-hooks.yaml run as pre-commit runs a `language: system` hook: the staged files
 * whose path matches `files` (a Python regular expression, searched) and not `exclude`; the command is the
 * entry split as a shell would (shlex), then the hook's `args`, then the file names, from the repository's
 * root; a non-zero exit blocks the commit. The hooks name a published version of the CLI; here npx gets this
 * repository's package, packed here (needs `npm run build`), in its place, and the compilers from the registry.
 */
const ROOT = join(__dirname, '..', '..');
const PUBLISHED_CLI = /--package=@mailproof\/cli@\d+\.\d+\.\d+(?=\s)/;

interface Hook {
  id: string;
  entry: string;
  language: string;
  files: string;
  exclude?: string;
  require_serial?: boolean;
}

const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];

/** The staged files a hook is given (pre-commit's `files` and `exclude`, both searched anywhere in the path). */
function filesFor(hook: Hook, staged: string[]): string[] {
  return staged.filter((file) => new RegExp(hook.files).test(file) && !(hook.exclude && new RegExp(hook.exclude).test(file)));
}

/** The hook's command line with the CLI replaced by `cli` (a tarball), its args and the files. */
function commandLine(hook: Hook, cli: string, args: string[], files: string[]): string[] {
  // No quotes in an entry: shlex's split is then a split on blanks.
  expect(hook.entry).not.toMatch(/["'\\]/);
  expect(hook.entry).toMatch(PUBLISHED_CLI);
  return [...hook.entry.replace(PUBLISHED_CLI, `--package=${cli}`).split(/\s+/), ...args, ...files];
}

describe('the pre-commit hooks (.pre-commit-hooks.yaml)', () => {
  const STAGED = [
    'emails/welcome.html',
    'emails/legacy.htm',
    'emails/receipt.eml',
    'emails/newsletter.mjml',
    'emails/Welcome.tsx',
    'emails/Reset.jsx',
    'emails/promo.maizzle.html',
    'README.md',
    'src/app.ts',
    'emails/notes.txt',
  ];

  it('are system hooks that run once per commit and give each email format to exactly one of them', () => {
    expect(hooks.map((hook) => hook.id)).toEqual(['mailproof-lint', 'mailproof-lint-mjml', 'mailproof-lint-jsx', 'mailproof-lint-maizzle']);
    for (const hook of hooks) expect(hook).toMatchObject({ language: 'system', require_serial: true });
    const routed = Object.fromEntries(hooks.map((hook) => [hook.id, filesFor(hook, STAGED)]));
    expect(routed).toEqual({
      'mailproof-lint': ['emails/welcome.html', 'emails/legacy.htm', 'emails/receipt.eml'],
      'mailproof-lint-mjml': ['emails/newsletter.mjml'],
      'mailproof-lint-jsx': ['emails/Welcome.tsx', 'emails/Reset.jsx'],
      'mailproof-lint-maizzle': ['emails/promo.maizzle.html'],
    });
  });

  describe('run from a repository with the packed CLI', () => {
    let work: string;
    let repo: string;
    let tarball: string;
    let env: NodeJS.ProcessEnv;
    const hook = (id: string) => hooks.find((item) => item.id === id)!;
    const runHook = async (id: string, args: string[], files: string[]) => {
      const [command, ...rest] = commandLine(hook(id), tarball, args, filesFor(hook(id), files));
      return runProcess(command, rest, { cwd: repo, env });
    };

    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), 'mailproof-pre-commit-'));
      tarball = packCliPackage(join(work, 'pack'));
      repo = join(work, 'repo');
      mkdirSync(join(repo, 'emails'), { recursive: true });
      copyFileSync(join(__dirname, '..', 'fixtures', 'cli', 'clean.html'), join(repo, 'emails', 'clean.html'));
      copyFileSync(join(__dirname, '..', 'fixtures', 'cli', 'with-errors.html'), join(repo, 'emails', 'broken.html'));
      copyFileSync(join(__dirname, '..', 'fixtures', 'cli', 'warnings-only.html'), join(repo, 'emails', 'warnings.html'));
      copyFileSync(join(__dirname, '..', 'fixtures', 'cli', 'newsletter.mjml'), join(repo, 'emails', 'newsletter.mjml'));
      writeFileSync(join(repo, 'README.md'), '# emails\n');
      // The developer's shell: the machine's environment (npm's proxy and certificates), none of this process's MAILPROOF_*.
      env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MAILPROOF_')));
    }, 300_000);

    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('mailproof-lint blocks a commit with an email that has errors, naming the line', async () => {
      const result = await runHook('mailproof-lint', [], ['emails/broken.html', 'emails/clean.html', 'README.md']);
      expect(result.code).toBe(1);
      expect(result.output).toMatch(/^emails\/broken\.html \(html/m);
      expect(result.output).toMatch(/^ {2}6:3 +error +<svg> +html-svg /m);
      expect(result.output).toMatch(/^2 files: 1 error, \d+ warnings?$/m);
    }, 600_000);

    it('mailproof-lint lets a clean commit through; its args (--fail-on-warning) come before the files', async () => {
      const clean = await runHook('mailproof-lint', [], ['emails/clean.html']);
      expect(clean.output).toMatch(/^1 file: 0 errors, 0 warnings$/m);
      expect(clean.code).toBe(0);
      expect((await runHook('mailproof-lint', [], ['emails/warnings.html'])).code).toBe(0);
      expect((await runHook('mailproof-lint', ['--fail-on-warning'], ['emails/warnings.html'])).code).toBe(2);
    }, 600_000);

    it('mailproof-lint-mjml brings its compilers and lints the MJML template at its own lines', async () => {
      const result = await runHook('mailproof-lint-mjml', [], ['emails/newsletter.mjml', 'emails/clean.html']);
      expect(result.output).not.toMatch(/installs on demand|cannot compile/);
      expect(result.output).toMatch(/^emails\/newsletter\.mjml \(mjml/m);
      expect(result.output).toMatch(/^ {2}6:9 +warning +border-radius +css-border-radius /m);
      expect(result.output).toMatch(/^1 file: \d+ errors?, \d+ warnings?$/m);
      // newsletter.mjml links a stylesheet, which Gmail drops: an error.
      expect(result.code).toBe(1);
    }, 600_000);
  });
});
