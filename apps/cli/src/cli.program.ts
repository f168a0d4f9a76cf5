import type { Command } from 'commander';
import { registerAccountCommands } from './commands/account.command';
import { registerKeyCommands } from './commands/key.command';
import { registerKeysCommands } from './commands/keys.command';
import { registerMcpCommand } from './commands/mcp.command';
import { registerMigrateCommand } from './commands/migrate.command';
import { buildEmailProgram } from './email-program';

import { version } from '../../../package.json';

/** Builds the monorepo's `mailproof` command: the email commands of the package, then MCP and the operator commands. */
export function buildProgram(): Command {
  const program = buildEmailProgram(version, 'Mailproof: check emails against 21 clients, audit sending domains, operate accounts.');
  registerMcpCommand(program);
  registerMigrateCommand(program);
  registerAccountCommands(program);
  registerKeyCommands(program);
  registerKeysCommands(program);
  return program;
}
