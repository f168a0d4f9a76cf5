#!/usr/bin/env node
'use strict';
const tasks = require('./lib/tasks');

tasks.ensureDependencies(undefined, { dev: false });
tasks.build();
