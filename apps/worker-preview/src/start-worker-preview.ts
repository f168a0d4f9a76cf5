import type { INestApplicationContext } from '@nestjs/common';
import type { MailproofConfig } from '@mailproof/config';
import { startTracing, startWorkerApp } from '@mailproof/queue';
import { WorkerPreviewAppModule } from './worker-preview.module';

export function startWorkerPreview(config: MailproofConfig): Promise<INestApplicationContext> {
  const tracing = startTracing(config, 'mailproof-worker-preview');
  return startWorkerApp(WorkerPreviewAppModule.forRoot(config), [tracing]);
}
