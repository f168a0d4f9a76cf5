import { Command } from 'commander';
import { registerAnalyzeCommand } from './commands/analyze.command';
import { EXIT_CODES } from './commands/cli-errors';
import { registerClientsCommand } from './commands/clients.command';
import { registerCompilersCommand } from './commands/compilers.command';
import { registerFixCommand } from './commands/fix.command';
import { registerGateCommand } from './commands/gate.command';
import { registerLintCommand } from './commands/lint.command';
import { registerScreenshotsCommand } from './commands/screenshots.command';

/**
 * The commands that need no database, Redis or repository: the installable package (packages/cli)
 * ships exactly these, and the monorepo's program adds the operator commands to them. Nothing
 * here may import Nest, TypeORM, BullMQ or the tracing SDK (scripts/build-cli-package.js checks).
 */
export function buildEmailProgram(version: string, description: string): Command {
  const program = new Command('mailproof')
    .description(description)
    .version(version, '-v, --version', 'print the Mailproof version')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) })
    // Commander has already printed its message; a wrong command line exits 3 (docs/cli.md), so
    // `lint`'s 1 and 2 always mean findings. Set before the commands: subcommands inherit it.
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT_CODES.usage));
  registerAnalyzeCommand(program);
  registerLintCommand(program);
  registerFixCommand(program);
  registerGateCommand(program);
  registerScreenshotsCommand(program);
  registerClientsCommand(program);
  registerCompilersCommand(program);
  return program;
}
