#!/usr/bin/env node
// npm run bench:mcp: what the MCP layer adds to an analysis. `api` and `worker-preview` run as
// separate processes (built dist). The median-size email of ../shared/corpus/html (a project fixture
// when the corpus is absent) is analyzed by 4 concurrent clients for 30 s (BENCH_SECONDS) two ways,
// in alternating 5 s slices so that both see the same machine: `analyze_email` through the MCP SDK's
// own client (StreamableHTTPClientTransport, one initialized client per connection), and
// `POST /api/preview` with the same key (the work analyze_email wraps). Prints p50/p95 of each and the
// difference of the medians. Target: the MCP layer adds at most 10% to the median.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const tasks = require('./lib/tasks');
const { prepareBenchmark, medianEmail, freePort, percentile, waitReady, startServices } = require('./lib/bench-service');

const DURATION_S = Number(process.env.BENCH_SECONDS || 30);
const SLICE_S = 5;
const CONCURRENCY = 4;

function createKey(env) {
  const result = spawnSync(
    process.execPath,
    [path.join(tasks.ROOT, 'bin', 'mailproof.js'), 'account', 'create', '--name', `bench-mcp-${process.pid}`, '--plan', 'pro'],
    { env, encoding: 'utf8' },
  );
  const key = /mp_live_[0-9A-Za-z]+/.exec(result.stdout ?? '')?.[0];
  if (!key) throw new Error(`could not create an account: ${result.stderr || result.stdout}`);
  return key;
}

/** Runs `once` in `CONCURRENCY` loops until `until`, returning each call's milliseconds. */
async function loops(workers, until) {
  const latencies = [];
  await Promise.all(
    workers.map(async (once) => {
      while (Date.now() < until) {
        const started = process.hrtime.bigint();
        await once();
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }),
  );
  return latencies;
}

async function main() {
  const env = await prepareBenchmark('bench-mcp', { RATE_LIMIT_PRO: '1000000' });
  const email = medianEmail();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { stop: stopServices } = startServices(env, port);
  const clients = [];
  try {
    await waitReady(url);
    const key = createKey(env);
    const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
    for (let i = 0; i < CONCURRENCY; i++) {
      const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      clients.push(client);
    }
    const viaMcp = clients.map((client) => async () => {
      const result = await client.callTool({ name: 'analyze_email', arguments: { html: email.html } });
      if (result.isError) throw new Error(`analyze_email failed: ${JSON.stringify(result.content)}`);
    });
    const body = JSON.stringify({ html: email.html });
    const viaHttp = clients.map(() => async () => {
      const res = await fetch(`${url}/api/preview`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`POST /api/preview answered ${res.status}`);
    });

    // Warm-up of both paths: JIT, pools, sandbox snapshots, the SDK's schema compilation.
    await loops(viaMcp, Date.now() + 3000);
    await loops(viaHttp, Date.now() + 3000);
    const mcp = [];
    const preview = [];
    for (let elapsed = 0; elapsed < DURATION_S; elapsed += SLICE_S) {
      mcp.push(...(await loops(viaMcp, Date.now() + SLICE_S * 1000)));
      preview.push(...(await loops(viaHttp, Date.now() + SLICE_S * 1000)));
    }
    mcp.sort((a, b) => a - b);
    preview.sort((a, b) => a - b);

    console.log(
      `email: ${email.name} (${Buffer.byteLength(email.html)} bytes), ${CONCURRENCY} concurrent clients, ${DURATION_S} s each, alternating ${SLICE_S} s slices`,
    );
    const line = (label, sorted) =>
      console.log(
        `${label}: ${sorted.length} calls (${(sorted.length / DURATION_S).toFixed(1)}/s), p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
      );
    line('MCP analyze_email (SDK client, streamable HTTP)', mcp);
    line('POST /api/preview (fetch, same key)        ', preview);
    const added = percentile(mcp, 50) / percentile(preview, 50) - 1;
    console.log(`the MCP layer adds ${(added * 100).toFixed(1)}% to the median (target <= 10%)`);
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await stopServices();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
