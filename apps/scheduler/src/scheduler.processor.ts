import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob } from '@mailproof/queue';
import { DriftSweepService } from './drift-sweep.service';
import { PreviewCleanupService } from './preview-cleanup.service';

/** Consumes the `scheduler` queue. Thin: check the job, call one service, store, return a small result. */
@Processor('scheduler', { autorun: false })
export class SchedulerProcessor extends ConsumerHost {
  constructor(
    config: MailproofConfig,
    private readonly probes: JobProbeRepository,
    private readonly driftSweep: DriftSweepService,
    private readonly previewCleanup: PreviewCleanupService,
  ) {
    super(config.consumerSettings(config.workers.schedulerConcurrency));
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name) {
      case 'probe.run':
        return handleProbeJob(job, 'scheduler', (row) => this.probes.record(row));
      case 'domain-sweep.run':
        if (job.data?.schemaVersion !== 1) throw new UnrecoverableError(`domain-sweep.run: unsupported schemaVersion ${String(job.data?.schemaVersion)}`);
        // The moment the scheduler meant this run for, not when a worker got to it: a late sweep still belongs to its window.
        return this.driftSweep.sweep(job.timestamp + (job.opts.delay ?? 0));
      case 'preview-cleanup.run':
        if (job.data?.schemaVersion !== 1) throw new UnrecoverableError(`preview-cleanup.run: unsupported schemaVersion ${String(job.data?.schemaVersion)}`);
        return this.previewCleanup.deleteExpired();
      default:
        throw new UnrecoverableError(`scheduler: unknown job name ${job.name}`);
    }
  }
}
