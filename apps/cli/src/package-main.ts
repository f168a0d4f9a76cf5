import { buildEmailProgram } from './email-program';
import { runCli } from './run-cli';

/**
 * Entry of the installable package (packages/cli, `npx mailproof …`): the email commands only, no
 * operator commands, so it loads no database, queue or tracing code. Its bin passes the package's version.
 */
export function main(version: string): void {
  runCli(buildEmailProgram(version, 'Mailproof: check emails against 21 clients (analyze, lint, fix, gate, screenshots).'));
}
