import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { QueueModule } from '@mailproof/queue';
import { WebhookQueueModule } from '@mailproof/webhooks';
import { DriftScheduleService } from './drift-schedule.service';
import { DriftSweepService } from './drift-sweep.service';
import { PreviewCleanupService } from './preview-cleanup.service';
import { DriftSweepHandler } from './drift-sweep.handler';
import { PreviewCleanupHandler } from './preview-cleanup.handler';
import { SchedulerProcessor } from './scheduler.processor';
import { WebhookRelayHandler } from './webhook-relay.handler';
import { WebhookRelayService } from './webhook-relay.service';

/** The scheduler app: no HTTP; owns the drift-sweep, preview-cleanup and webhook-relay job schedulers and consumes the `scheduler` queue. */
@Module({})
export class SchedulerAppModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: SchedulerAppModule,
      imports: [ConfigModule.forRoot(config), createLoggerModule(config, 'scheduler'), PersistenceModule, QueueModule, WebhookQueueModule],
      providers: [
        SchedulerProcessor,
        DriftSweepHandler,
        PreviewCleanupHandler,
        DriftSweepService,
        DriftScheduleService,
        PreviewCleanupService,
        WebhookRelayHandler,
        WebhookRelayService,
      ],
    };
  }
}
