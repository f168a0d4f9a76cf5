import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { QueueModule } from '@mailproof/queue';
import { PreviewRenderService } from './preview-render.service';
import { RenderScreenshotsHandler } from './render-screenshots.handler';
import { RenderProcessor } from './render.processor';

/** The worker-render app: no HTTP, consumes the `render` queue: screenshots in headless Chromium (docs/rendering.md). */
@Module({})
export class WorkerRenderAppModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: WorkerRenderAppModule,
      imports: [ConfigModule.forRoot(config), createLoggerModule(config, 'worker-render'), PersistenceModule, QueueModule],
      providers: [PreviewRenderService, RenderScreenshotsHandler, RenderProcessor],
    };
  }
}
