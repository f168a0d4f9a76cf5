import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob } from '@mailproof/queue';

/** Consumes the `scheduler` queue. Thin: check the job, call one service, store, return a small result. */
@Processor('scheduler')
export class SchedulerProcessor extends ConsumerHost {
  constructor(
    config: MailproofConfig,
    private readonly probes: JobProbeRepository,
  ) {
    super(config.workers.schedulerConcurrency);
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name) {
      case 'probe.run':
        return handleProbeJob(job, 'scheduler', (row) => this.probes.record(row));
      default:
        throw new UnrecoverableError(`scheduler: unknown job name ${job.name}`);
    }
  }
}
