import type { Command } from 'commander';
import { CliError, EXIT_CODES } from './commands/cli-errors';

/** Runs a `mailproof` program: messages only on failure (never a stack), and a closed pipe is not an error. */
export function runCli(program: Command, argv: readonly string[] = process.argv): void {
  // `mailproof clients --properties | head` closes the pipe early: that is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_CODES.ok);
    throw error;
  });
  program.parseAsync([...argv]).catch((error: unknown) => {
    // Messages only, never a stack: CliError messages are written for people, others are still short.
    console.error(`mailproof: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof CliError ? error.exitCode : EXIT_CODES.failure);
  });
}
