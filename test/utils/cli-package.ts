import { spawn } from 'node:child_process';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package builder is a plain Node script module
const { buildCliPackage } = require('../../scripts/build-cli-package') as {
  buildCliPackage(options: { build?: boolean; outDir?: string }): { packed: { tarball: string } };
};

/**
 * The installable command line (packages/cli, docs/cli.md "The package") packed from this checkout's dist/
 * into `outDir`, as the CI recipes (action.yml, the GitLab template, the pre-commit hooks) install it from a
 * registry. Needs a build (`npm run build`, or `node scripts/lib/transpile-dist.js`). Returns the tarball's path.
 */
export function packCliPackage(outDir: string): string {
  return buildCliPackage({ build: false, outDir }).packed.tarball;
}

export interface ProcessRun {
  /** The exit code (1 when the process was ended by a signal). */
  code: number;
  /** stdout and stderr interleaved as they came, as a CI log shows them. */
  output: string;
}

/** Runs a command to its end, its output collected; `input` is written to its stdin (closed otherwise). */
export function runProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += String(chunk)));
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}
