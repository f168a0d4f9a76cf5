import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError, type Job } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import type { PreviewJobPayload } from '@mailproof/contracts';
import { JobProbeRepository } from '@mailproof/persistence';
import { ConsumerHost, handleProbeJob } from '@mailproof/queue';
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
        return this.analysis.analyse(payload.previewId);
      }
      default:
        throw new UnrecoverableError(`preview: unknown job name ${job.name}`);
    }
  }
}
