import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob } from '@mailproof/queue';

/** Consumes the `dns-audit` queue. Thin: check the job, call one service, store, return a small result. */
@Processor('dns-audit')
export class WorkerDnsProcessor extends ConsumerHost {
  constructor(
    config: MailproofConfig,
    private readonly probes: JobProbeRepository,
  ) {
    super(config.workers.dnsConcurrency);
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name) {
      case 'probe.run':
        return handleProbeJob(job, 'dns-audit', (row) => this.probes.record(row));
      default:
        throw new UnrecoverableError(`dns-audit: unknown job name ${job.name}`);
    }
  }
}
