#!/usr/bin/env node
// The `mailproof` command. Runs the compiled CLI, building it first on a fresh checkout.
// Node 22.1 and later cache compiled modules on disk for later runs (docs/cli.md, "Start-up"); Node 20 skips it.
require('node:module').enableCompileCache?.();
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const entry = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('mailproof: first run, building (npm run build)...\n');
  require('../scripts/lib/tasks').build({ quiet: true });
}
require(entry);
