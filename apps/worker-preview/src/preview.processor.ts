import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob } from '@mailproof/queue';

/** Consumes the `preview` queue. Thin: check the job, call one service, store, return a small result. */
@Processor('preview')
export class WorkerPreviewProcessor extends ConsumerHost {
  constructor(
    config: MailproofConfig,
    private readonly probes: JobProbeRepository,
  ) {
    super(config.workers.previewConcurrency);
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name) {
      case 'probe.run':
        return handleProbeJob(job, 'preview', (row) => this.probes.record(row));
      default:
        throw new UnrecoverableError(`preview: unknown job name ${job.name}`);
    }
  }
}
