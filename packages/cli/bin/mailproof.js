#!/usr/bin/env node
// The installed `mailproof` command: the email commands, compiled from the Mailproof repository (docs/cli.md).
'use strict';
// Node 22.1 and later keep the compiled code of the modules a run loads in a cache on disk, so that later runs
// skip compiling them again (docs/cli.md, "Start-up"). Node 20 has no such cache: the call is skipped there.
require('node:module').enableCompileCache?.();
const { version } = require('../package.json');
require('../dist/apps/cli/src/package-main').main(version);
