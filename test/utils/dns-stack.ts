import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { migrateDatabase } from '@mailproof/persistence';
import { startWorkerDns } from '../../apps/worker-dns/src/start-worker-dns';
import { startTestApi, type RunningApi } from './api-server';
import { openDatabase } from './database';
import { deliverabilityFixtures } from './dns-fixture-zones';
import { openQueues } from './queues';
import { testConfig } from './test-config';
import { UnboundServer } from './unbound-server';

/** The DNS suites run everywhere: without unbound they fail naming the package (like the spamd suite), never skip. */
export const describeWithUnbound = describe;

export interface DnsStack {
  unbound: UnboundServer;
  config: ReturnType<typeof testConfig>;
  queues: ReturnType<typeof openQueues>;
  db: DataSource;
  api: RunningApi;
  worker: INestApplicationContext;
  stop(): Promise<void>;
}

/** unbound serving the fixture zones, the API and worker-dns in-process, reaching it over DoH. */
export async function startDnsStack(overrides: Record<string, string | number> = {}): Promise<DnsStack> {
  const unbound = await UnboundServer.start(deliverabilityFixtures());
  const config = testConfig({ DNS_SERVERS: unbound.dohServer, DNS_PROTOCOL: 'http', DNS_TIMEOUT_MS: 400, DNS_TRIES: 1, ...overrides });
  const queues = openQueues(config);
  await migrateDatabase(config.database.url);
  const db = await openDatabase(config);
  const worker = await startWorkerDns(config);
  const api = await startTestApi(config);
  return {
    unbound,
    config,
    queues,
    db,
    api,
    worker,
    async stop() {
      await api.close();
      await worker.close();
      await queues.closeAll();
      await db.destroy();
      await unbound.stop();
    },
  };
}
