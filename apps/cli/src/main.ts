#!/usr/bin/env node
import 'reflect-metadata';
import { buildProgram } from './cli.program';
import { CliError, EXIT_CODES } from './commands/cli-errors';

// `mailproof clients --properties | head` closes the pipe early: that is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_CODES.ok);
  throw error;
});

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    // Messages only, never a stack: CliError messages are written for people, others are still short.
    console.error(`mailproof: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof CliError ? error.exitCode : EXIT_CODES.failure);
  });
