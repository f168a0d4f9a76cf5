import { Injectable } from '@nestjs/common';
import type { PreviewCleanupJobResult } from '@mailproof/contracts';
import type { JobHandler } from '@mailproof/queue';
import { PreviewCleanupService } from './preview-cleanup.service';

/** `preview-cleanup.run`: delete anonymous previews and fix runs past their lifetime, and sweep what is past its account's retention. */
@Injectable()
export class PreviewCleanupHandler implements JobHandler<'preview-cleanup.run'> {
  readonly jobName = 'preview-cleanup.run';

  constructor(private readonly previewCleanup: PreviewCleanupService) {}

  handle(): Promise<PreviewCleanupJobResult> {
    return this.previewCleanup.deleteExpired();
  }
}
