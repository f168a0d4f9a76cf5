import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { QueueModule } from '@mailproof/queue';
import { WebhookQueueModule } from '@mailproof/webhooks';
import { AnalysisPool } from './analysis/analysis-pool';
import { FixRunHandler } from './fix/fix-run.handler';
import { FixRunService } from './fix/fix-run.service';
import { PreviewAnalysisService } from './preview-analysis.service';
import { PreviewChecksService } from './preview-checks.service';
import { MessageAuthenticationService } from './message/message-authentication.service';
import { GateImportHandler } from './gate/gate-import.handler';
import { GateRunService } from './gate/gate-run.service';
import { GateVisualReader } from './gate/gate-visual.reader';
import { GateVerdictHandler } from './gate/gate-verdict.handler';
import { GateSuggestFixHandler } from './gate/gate-suggest-fix.handler';
import { GateProcessor } from './gate/gate.processor';
import { RedisLinkCheckCache } from './gate/redis-link-check.cache';
import { LinkCheckProcessor } from './gate/link-check.processor';
import { LinksResolveHandler } from './gate/links-resolve.handler';
import { PreviewAnalyzeHandler } from './preview-analyze.handler';
import { PreviewProcessor } from './preview.processor';

/** The worker-preview app: no HTTP; consumes `preview` (analyses, fix runs and gate runs' suggested fixes), `gate` (gate steps) and `link-check` (link resolution). */
@Module({})
export class WorkerPreviewAppModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: WorkerPreviewAppModule,
      imports: [ConfigModule.forRoot(config), createLoggerModule(config, 'worker-preview'), PersistenceModule, QueueModule, WebhookQueueModule],
      providers: [
        PreviewProcessor,
        PreviewAnalyzeHandler,
        FixRunHandler,
        FixRunService,
        GateProcessor,
        GateImportHandler,
        GateVerdictHandler,
        GateSuggestFixHandler,
        LinkCheckProcessor,
        LinksResolveHandler,
        GateRunService,
        GateVisualReader,
        RedisLinkCheckCache,
        PreviewAnalysisService,
        PreviewChecksService,
        MessageAuthenticationService,
        AnalysisPool,
      ],
    };
  }
}
