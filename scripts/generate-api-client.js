#!/usr/bin/env node
// Writes the typed API client's types (apps/cli/src/api-client/openapi.ts) from the OpenAPI document the API
// serves. The document comes from --from (a URL of a running Mailproof server's /api/openapi.json, or a file),
// else from the built API booted here on a loopback port (DATABASE_URL and REDIS_URL must answer, as for
// `npm start`). --check compares instead of writing and exits 1 when the file is out of date.
//   node scripts/generate-api-client.js [--from URL|FILE] [--check] [--no-build (use dist/ as it is)]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const tasks = require('./lib/tasks');
const { TYPES_FILE, generateApiTypes } = require('./lib/api-client-types');

async function documentFromBuiltApi(build) {
  tasks.loadDotEnv();
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/mailproof';
  process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  await tasks.ensureServices(process.env.DATABASE_URL, process.env.REDIS_URL);
  await tasks.ensureDatabase(process.env.DATABASE_URL);
  if (build) tasks.build({ quiet: true });
  const dist = path.join(tasks.ROOT, 'dist');
  require('reflect-metadata');
  const { loadConfig } = require(path.join(dist, 'libs/config/src'));
  const { migrateDatabase } = require(path.join(dist, 'libs/persistence/src'));
  const { createApiApp } = require(path.join(dist, 'apps/api/src/start-api'));
  const config = loadConfig();
  await migrateDatabase(config.database.url);
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  try {
    const { port } = app.getHttpServer().address();
    return await fetchDocument(`http://127.0.0.1:${port}/api/openapi.json`);
  } finally {
    await app.close();
  }
}

async function fetchDocument(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return response.json();
}

async function main() {
  const args = process.argv.slice(2);
  const fromIndex = args.indexOf('--from');
  const from = fromIndex === -1 ? undefined : args[fromIndex + 1];
  let document;
  if (!from) document = await documentFromBuiltApi(!args.includes('--no-build'));
  else if (/^https?:\/\//.test(from)) document = await fetchDocument(from);
  else document = JSON.parse(fs.readFileSync(from, 'utf8'));
  const types = await generateApiTypes(document);
  const current = fs.existsSync(TYPES_FILE) ? fs.readFileSync(TYPES_FILE, 'utf8') : '';
  if (args.includes('--check')) {
    if (current !== types) {
      const [was, now] = [current.split('\n'), types.split('\n')];
      const line = now.findIndex((text, index) => text !== was[index]);
      console.error(`${path.relative(tasks.ROOT, TYPES_FILE)} is out of date: run npm run generate:api-client`);
      console.error(`first difference at line ${line + 1}:\n  file:      ${was[line] ?? '(end)'}\n  generated: ${now[line] ?? '(end)'}`);
      process.exit(1);
    }
    console.log(`${path.relative(tasks.ROOT, TYPES_FILE)} is up to date`);
    return;
  }
  fs.writeFileSync(TYPES_FILE, types);
  console.log(`${current === types ? 'unchanged' : 'wrote'} ${path.relative(tasks.ROOT, TYPES_FILE)}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`generate-api-client: ${error.message}`);
    process.exit(1);
  },
);
