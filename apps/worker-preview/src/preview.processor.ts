import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { PreviewAnalyseHandler } from './preview-analyse.handler';

/** The `preview` queue's dispatcher: its handlers, nothing else (ConsumerHost checks and dispatches). */
@Processor('preview', { autorun: false })
export class PreviewProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, analyse: PreviewAnalyseHandler) {
    super('preview', config.consumerSettings(config.workers.previewConcurrency), [probeJobHandler((row) => probes.record(row)), analyse]);
  }
}
