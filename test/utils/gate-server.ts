import type { DataSource } from 'typeorm';
import { startTestApi, type RunningApi } from './api-server';
import type { AppProcess } from './app-process';
import { createTestAccount, openDatabase } from './database';
import { openQueues } from './queues';
import { testConfig } from './test-config';
import { startWorkerPreview } from './worker-preview';

/** A Mailproof server a CI recipe can gate against: the real API in-process and a preview worker consuming the gate queue. */
export interface GateServer {
  url: string;
  /** A key of a Pro account (the gate's plan). */
  proKey: string;
  stop(): Promise<void>;
}

export async function startGateServer(): Promise<GateServer> {
  const config = testConfig({ GATE_BUDGET_MS: 20_000 });
  const queues = openQueues(config);
  let db: DataSource | undefined;
  let api: RunningApi | undefined;
  let worker: AppProcess | undefined;
  const stop = async () => {
    await worker?.stop('SIGKILL');
    await api?.close();
    await queues.closeAll();
    await db?.destroy();
  };
  try {
    db = await openDatabase(config);
    api = await startTestApi(config);
    worker = await startWorkerPreview(config, queues, {}, ['preview', 'gate']);
    const proKey = (await createTestAccount(db, 'pro')).key;
    return { url: api.url, proKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
