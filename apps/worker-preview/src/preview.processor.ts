import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import type { PreviewJobPayload } from '@mailproof/contracts';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob, type FinalFailureCause } from '@mailproof/queue';
import { PreviewAnalysisService } from './preview-analysis.service';

/** Consumes the `preview` queue. Thin: check the job, call one service, return a small result. */
@Processor('preview', { autorun: false })
export class WorkerPreviewProcessor extends ConsumerHost {
  constructor(
    config: MailproofConfig,
    private readonly probes: JobProbeRepository,
    private readonly analysis: PreviewAnalysisService,
  ) {
    super(config.consumerSettings(config.workers.previewConcurrency));
  }

  async process(job: Job): Promise<unknown> {
    switch (job.name) {
      case 'probe.run':
        return handleProbeJob(job, 'preview', (row) => this.probes.record(row));
      case 'preview.analyse': {
        const payload = job.data as PreviewJobPayload;
        if (payload?.schemaVersion !== 1 || typeof payload.previewId !== 'string') {
          throw new UnrecoverableError(`preview.analyse: unsupported payload (schemaVersion ${String(payload?.schemaVersion)})`);
        }
        try {
          return await this.analysis.analyse(payload.previewId);
        } catch (error) {
          // The last attempt: the failure is stored before BullMQ reports it, so a waiting request reads it.
          if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.analysis.recordFinalFailure(payload.previewId, 'failed');
          throw error;
        }
      }
      default:
        throw new UnrecoverableError(`preview: unknown job name ${job.name}`);
    }
  }

  /** A preview whose job failed for good is stored as failed, with the reason the API returns. */
  protected override async onFinalFailure(job: Job, cause: FinalFailureCause): Promise<void> {
    const payload = job.data as Partial<PreviewJobPayload> | undefined;
    if (job.name !== 'preview.analyse' || typeof payload?.previewId !== 'string') return;
    await this.analysis.recordFinalFailure(payload.previewId, cause);
  }
}
