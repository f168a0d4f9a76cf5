import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, MailproofConfig, createLoggerModule } from '@mailproof/config';
import { PersistenceModule } from '@mailproof/persistence';
import { QueueModule } from '@mailproof/queue';
import { AnalysisPool } from './analysis/analysis-pool';
import { PreviewAnalysisService } from './preview-analysis.service';
import { PreviewChecksService } from './preview-checks.service';
import { PreviewAnalyseHandler } from './preview-analyse.handler';
import { PreviewProcessor } from './preview.processor';

/** The worker-preview app: no HTTP, consumes the `preview` queue. */
@Module({})
export class WorkerPreviewAppModule {
  static forRoot(config: MailproofConfig): DynamicModule {
    return {
      module: WorkerPreviewAppModule,
      imports: [ConfigModule.forRoot(config), createLoggerModule(config, 'worker-preview'), PersistenceModule, QueueModule],
      providers: [PreviewProcessor, PreviewAnalyseHandler, PreviewAnalysisService, PreviewChecksService, AnalysisPool],
    };
  }
}
