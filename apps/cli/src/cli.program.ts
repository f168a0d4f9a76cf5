import { Command } from 'commander';
import { registerAccountCommands } from './commands/account.command';
import { registerKeyCommands } from './commands/key.command';
import { registerMigrateCommand } from './commands/migrate.command';

import { version } from '../../../package.json';

/** Builds the `mailproof` command. Each command lives in commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command('mailproof')
    .description('Mailproof: check emails against 21 clients, audit sending domains, operate accounts.')
    .version(version, '-v, --version', 'print the Mailproof version')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  registerMigrateCommand(program);
  registerAccountCommands(program);
  registerKeyCommands(program);
  return program;
}
