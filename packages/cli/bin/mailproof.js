#!/usr/bin/env node
// The installed `mailproof` command: the email commands, compiled from the Mailproof repository (docs/cli.md).
'use strict';
const { version } = require('../package.json');
require('../dist/apps/cli/src/package-main').main(version);
