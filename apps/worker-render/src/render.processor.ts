import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { RenderScreenshotsHandler } from './render-screenshots.handler';

/** The `render` queue's dispatcher: its handlers, nothing else (ConsumerHost checks and dispatches). */
@Processor('render', { autorun: false })
export class RenderProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, screenshots: RenderScreenshotsHandler) {
    super('render', config.consumerSettings(config.workers.renderConcurrency), [probeJobHandler((row) => probes.record(row)), screenshots]);
  }
}
