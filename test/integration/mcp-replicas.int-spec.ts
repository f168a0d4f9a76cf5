import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DataSource } from 'typeorm';
import { CLEAN_EMAIL, WORSE_EMAIL } from '../fixtures/mcp/emails';
import { startAppProcess, type AppProcess } from '../utils/app-process';
import { createTestAccount, openDatabase } from '../utils/database';
import { freePort } from '../utils/free-port';
import { connectMcp } from '../utils/mcp-client';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { waitFor } from '../utils/wait';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * Two API processes with no session affinity: one MCP client whose requests go to either replica in
 * turn (initialize on one, the next call on the other...) is served throughout, because the server
 * keeps no session between requests.
 */
describe('MCP across two API replicas', () => {
  const config = testConfig({ PREVIEW_BUDGET_MS: 15_000 });
  const queues = openQueues(config);
  let db: DataSource;
  let worker: AppProcess;
  const replicas: Array<{ process: AppProcess; url: string }> = [];
  let key: string;
  let client: Client;
  const servedBy: string[] = [];

  beforeAll(async () => {
    db = await openDatabase(config);
    worker = await startWorkerPreview(config, queues);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      replicas.push({
        process: startAppProcess('api', { PORT: String(port), HOST: '127.0.0.1', QUEUE_PREFIX: config.queue.prefix, MIGRATE_ON_START: 'false' }),
        url,
      });
    }
    for (const replica of replicas) {
      await waitFor(async () => (await fetch(`${replica.url}/health/live`).catch(() => null))?.status === 200, `API replica ${replica.url} to be live`, 30_000);
    }
    key = (await createTestAccount(db, 'free')).key;
    // Round robin, request by request: the client is told one address and reaches both.
    let next = 0;
    client = await connectMcp(replicas[0].url, key, (input, init) => {
      const replica = replicas[next++ % replicas.length];
      servedBy.push(replica.url);
      return fetch(String(input).replace(replicas[0].url, replica.url), init);
    });
  }, 90_000);

  afterAll(async () => {
    await client?.close();
    for (const replica of replicas) await replica.process.stop('SIGKILL');
    await worker?.stop('SIGKILL');
    await queues.closeAll();
    await db?.destroy();
  });

  it('serves consecutive calls of one client on either replica', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const scores: number[] = [];
    for (const html of [CLEAN_EMAIL, WORSE_EMAIL, CLEAN_EMAIL, WORSE_EMAIL]) {
      const result = await client.callTool({ name: 'analyze_email', arguments: { html, clients: ['outlook-windows-legacy'] } });
      expect(result.isError).toBeFalsy();
      scores.push((result.structuredContent as { overallScore: number }).overallScore);
    }
    // The same email scores the same whichever replica answered.
    expect(scores[0]).toBe(scores[2]);
    expect(scores[1]).toBe(scores[3]);
    expect(scores[1]).toBeLessThan(scores[0]);
    expect(new Set(servedBy)).toEqual(new Set(replicas.map((replica) => replica.url)));
  });
});
