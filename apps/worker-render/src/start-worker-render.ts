import type { INestApplicationContext } from '@nestjs/common';
import type { MailproofConfig } from '@mailproof/config';
import { startWorkerApp } from '@mailproof/queue';
import { WorkerRenderAppModule } from './worker-render.module';

export function startWorkerRender(config: MailproofConfig): Promise<INestApplicationContext> {
  return startWorkerApp(WorkerRenderAppModule.forRoot(config));
}
