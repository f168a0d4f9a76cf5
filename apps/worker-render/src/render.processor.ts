import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';

/** The `render` queue's dispatcher: its handlers, nothing else (ConsumerHost checks and dispatches). */
@Processor('render', { autorun: false })
export class RenderProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository) {
    super('render', config.consumerSettings(config.workers.renderConcurrency), [probeJobHandler((row) => probes.record(row))]);
  }
}
