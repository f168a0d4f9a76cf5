import type { INestApplicationContext } from '@nestjs/common';
import type { MailproofConfig } from '@mailproof/config';
import { startWorkerApp } from '@mailproof/queue';
import { SchedulerAppModule } from './scheduler.module';

export function startScheduler(config: MailproofConfig): Promise<INestApplicationContext> {
  return startWorkerApp(SchedulerAppModule.forRoot(config));
}
