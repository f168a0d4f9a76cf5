import type { DynamicModule, INestApplication } from '@nestjs/common';
import type { MailproofConfig } from '@mailproof/config';
import { createApiApp } from '../../apps/api/src/start-api';

export interface RunningApi {
  app: INestApplication;
  url: string;
  close(): Promise<void>;
}

/** Boots the real API in-process on a random loopback port. */
export async function startTestApi(config: MailproofConfig, rootModule?: DynamicModule): Promise<RunningApi> {
  const app = await createApiApp(config, rootModule);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}`, close: () => app.close() };
}
