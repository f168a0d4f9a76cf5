import type { INestApplicationContext } from '@nestjs/common';
import type { MailproofConfig } from '@mailproof/config';
import { startTracing, startWorkerApp } from '@mailproof/queue';
import { WorkerDnsAppModule } from './worker-dns.module';

export function startWorkerDns(config: MailproofConfig): Promise<INestApplicationContext> {
  const tracing = startTracing(config, 'mailproof-worker-dns');
  return startWorkerApp(WorkerDnsAppModule.forRoot(config), [tracing]);
}
