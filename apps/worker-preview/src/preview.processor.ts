import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { FixRunHandler } from './fix/fix-run.handler';
import { GateSuggestFixHandler } from './gate/gate-suggest-fix.handler';
import { PreviewAnalyzeHandler } from './preview-analyze.handler';

/** The `preview` queue's dispatcher: its handlers, nothing else (ConsumerHost checks and dispatches). */
@Processor('preview', { autorun: false })
export class PreviewProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, analyze: PreviewAnalyzeHandler, fix: FixRunHandler, suggestFix: GateSuggestFixHandler) {
    super('preview', config.consumerSettings(config.workers.previewConcurrency), [probeJobHandler((row) => probes.record(row)), analyze, fix, suggestFix]);
  }
}
