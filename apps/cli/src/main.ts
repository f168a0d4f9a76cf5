#!/usr/bin/env node
import 'reflect-metadata';
import { buildProgram } from './cli.program';

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`mailproof: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
