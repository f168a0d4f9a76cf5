#!/usr/bin/env node
import 'reflect-metadata';
import { buildProgram } from './cli.program';
import { runCli } from './run-cli';

runCli(buildProgram());
