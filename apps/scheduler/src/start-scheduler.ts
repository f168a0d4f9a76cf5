import type { INestApplicationContext } from '@nestjs/common';
import type { MailproofConfig } from '@mailproof/config';
import { startTracing, startWorkerApp } from '@mailproof/queue';
import { SchedulerAppModule } from './scheduler.module';

export function startScheduler(config: MailproofConfig): Promise<INestApplicationContext> {
  const tracing = startTracing(config, 'mailproof-scheduler');
  return startWorkerApp(SchedulerAppModule.forRoot(config), [tracing]);
}
