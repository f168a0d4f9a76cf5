import type { INestApplicationContext } from '@nestjs/common';
import type { MailproofConfig } from '@mailproof/config';
import { startTracing, startWorkerApp } from '@mailproof/queue';
import { WorkerRenderAppModule } from './worker-render.module';

export function startWorkerRender(config: MailproofConfig): Promise<INestApplicationContext> {
  const tracing = startTracing(config, 'mailproof-worker-render');
  return startWorkerApp(WorkerRenderAppModule.forRoot(config), [tracing]);
}
