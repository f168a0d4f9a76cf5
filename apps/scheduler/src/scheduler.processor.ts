import { Processor } from '@nestjs/bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, probeJobHandler } from '@mailproof/queue';
import { DriftSweepHandler } from './drift-sweep.handler';
import { PreviewCleanupHandler } from './preview-cleanup.handler';
import { WebhookRelayHandler } from './webhook-relay.handler';

/** The `scheduler` queue's dispatcher: its handlers, nothing else (ConsumerHost checks and dispatches). */
@Processor('scheduler', { autorun: false })
export class SchedulerProcessor extends ConsumerHost {
  constructor(config: MailproofConfig, probes: JobProbeRepository, sweep: DriftSweepHandler, cleanup: PreviewCleanupHandler, relay: WebhookRelayHandler) {
    super('scheduler', config.consumerSettings(config.workers.schedulerConcurrency), [probeJobHandler((row) => probes.record(row)), sweep, cleanup, relay]);
  }
}
