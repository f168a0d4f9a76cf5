import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob } from '@mailproof/queue';

/** Consumes the `render` queue. Thin: check the job, call one service, store, return a small result. */
@Processor('render', { autorun: false })
export class WorkerRenderProcessor extends ConsumerHost {
  constructor(
    config: MailproofConfig,
    private readonly probes: JobProbeRepository,
  ) {
    super(config.consumerSettings(config.workers.renderConcurrency));
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name) {
      case 'probe.run':
        return handleProbeJob(job, 'render', (row) => this.probes.record(row));
      default:
        throw new UnrecoverableError(`render: unknown job name ${job.name}`);
    }
  }
}
