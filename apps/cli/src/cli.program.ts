import { Command } from 'commander';
import { registerAccountCommands } from './commands/account.command';
import { registerAnalyzeCommand } from './commands/analyze.command';
import { EXIT_CODES } from './commands/cli-errors';
import { registerClientsCommand } from './commands/clients.command';
import { registerFixCommand } from './commands/fix.command';
import { registerGateCommand } from './commands/gate.command';
import { registerKeyCommands } from './commands/key.command';
import { registerKeysCommands } from './commands/keys.command';
import { registerLintCommand } from './commands/lint.command';
import { registerMcpCommand } from './commands/mcp.command';
import { registerMigrateCommand } from './commands/migrate.command';
import { registerScreenshotsCommand } from './commands/screenshots.command';

import { version } from '../../../package.json';

/** Builds the `mailproof` command. Each command lives in commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command('mailproof')
    .description('Mailproof: check emails against 21 clients, audit sending domains, operate accounts.')
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
  registerMcpCommand(program);
  registerMigrateCommand(program);
  registerAccountCommands(program);
  registerKeyCommands(program);
  registerKeysCommands(program);
  return program;
}
