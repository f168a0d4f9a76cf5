// The service as the gate's visual check runs it, for `npm run check:visual` and the gate part of
// `npm run bench:visual`: the built api, worker-preview and worker-render as processes of their own (real
// PostgreSQL, Redis, BullMQ and Chromium), a Pro key made with the operator CLI, and the calls the scripts
// make: a gate run with `visual`, and what a run's preview measured (the divergence per client and scheme,
// the reference rendering's fingerprint per scheme, computed as the verdict step computes it).
'use strict';
const path = require('node:path');
const { spawn } = require('node:child_process');
const tasks = require('./tasks');
const { prepareBenchmark, freePort, waitReady, createProKey } = require('./bench-service');

const APPS = ['worker-preview', 'worker-render', 'api'];

/** Waits until the API answers /health/live (it has migrated the database by then). */
async function waitListening(url, api, deadlineMs = Number(process.env.BENCH_READY_MS ?? 180_000)) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (api.exitCode !== null) throw new Error(`the API exited (${api.exitCode}) before it listened`);
    try {
      if ((await fetch(`${url}/health/live`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the API did not listen in time');
}

/** Starts the three apps over the script's own database and queue prefix; resolves once every queue has a live worker. */
async function startVisualService(name, settings = {}) {
  const env = await prepareBenchmark(name, {
    DATABASE_URL: process.env.DATABASE_URL || `postgres://postgres@127.0.0.1:5432/mailproof_${name.replace(/[^a-z0-9]/g, '_')}`,
    CHROMIUM_PATH: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    // The pairs carry their pictures as data: URIs; a corpus email's remote images are not fetched.
    RENDER_IMAGES: process.env.RENDER_IMAGES || 'false',
    ...settings,
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnApp = (app) =>
    spawn(process.execPath, [path.join(tasks.ROOT, 'dist', 'apps', app, 'src', 'main.js')], {
      // The API migrates the database; the workers start once it listens, so no two processes migrate at once.
      env: app === 'api' ? { ...env, PORT: String(port), HOST: '127.0.0.1' } : { ...env, MIGRATE_ON_START: 'false' },
      stdio: process.env.VISUAL_SERVICE_LOGS ? 'inherit' : 'ignore',
    });
  const children = [spawnApp('api')];
  try {
    await waitListening(url, children[0]);
  } catch (error) {
    children[0].kill('SIGKILL');
    throw error;
  }
  for (const app of APPS.filter((name) => name !== 'api')) children.push(spawnApp(app));
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    const killer = setTimeout(() => children.forEach((child) => child.kill('SIGKILL')), 5000);
    await Promise.all(children.map((child) => (child.exitCode !== null || child.signalCode !== null ? null : new Promise((r) => child.once('exit', r)))));
    clearTimeout(killer);
  };
  try {
    await waitReady(url, ['preview', 'render', 'gate']);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, env, key: createProKey(env, name), stop, pids: () => children.map((child) => child.pid) };
}

async function call(service, method, route, body) {
  const res = await fetch(`${service.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** POST /api/gate with the visual check; the verdict (throws on anything but 200). */
async function gateVisual(service, { html, ref, updateBaseline = 'on-pass', visualThreshold, clients }) {
  const body = { html, ref, updateBaseline, checks: ['compatibility', 'visual'], threshold: 0, failOnError: false };
  if (visualThreshold !== undefined) body.visualThreshold = visualThreshold;
  if (clients) body.clients = clients;
  const started = process.hrtime.bigint();
  const { status, body: verdict } = await call(service, 'POST', '/api/gate', body);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (status !== 200) throw new Error(`gate answered ${status}: ${JSON.stringify(verdict)}`);
  return { verdict, ms };
}

function engine() {
  return require(path.join(tasks.ROOT, 'dist', 'libs', 'engine', 'src'));
}

/**
 * What a run measured, as the verdict step reads it (apps/worker-preview/src/gate/gate-visual.reader.ts): the
 * preview's `visualReport.divergence` and each scheme's reference fingerprint from its stored screenshot.
 */
async function measured(service, previewId) {
  const { status, body } = await call(service, 'GET', `/api/preview/${previewId}`);
  if (status !== 200) throw new Error(`GET /api/preview/${previewId} answered ${status}`);
  const { referenceShots } = require(path.join(tasks.ROOT, 'dist', 'apps', 'worker-preview', 'src', 'gate', 'gate-visual.reader.js'));
  const { PNG } = require(path.join(tasks.ROOT, 'node_modules', 'pngjs'));
  const reference = {};
  for (const [scheme, shot] of Object.entries(referenceShots(body.screenshots ?? null))) {
    const png = await fetch(shot.url.replace(/^https?:\/\/[^/]+/, service.url));
    if (!png.ok) continue;
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    reference[scheme] = engine().referenceFingerprint({ width: image.width, height: image.height, data: image.data }, shot.scale);
  }
  return { version: 1, divergence: body.visualReport?.divergence ?? {}, reference };
}

module.exports = { startVisualService, gateVisual, measured, engine, call };
