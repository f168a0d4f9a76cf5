import { Injectable } from '@nestjs/common';
import type { PreviewJobPayload, PreviewJobResult } from '@mailproof/contracts';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { PreviewAnalysisService } from './preview-analysis.service';

/** `preview.analyse`: compile and analyse one stored preview; a failure for good is stored on the preview. */
@Injectable()
export class PreviewAnalyseHandler implements JobHandler<'preview.analyse'> {
  readonly jobName = 'preview.analyse';

  constructor(private readonly analysis: PreviewAnalysisService) {}

  handle(payload: PreviewJobPayload): Promise<PreviewJobResult> {
    return this.analysis.analyse(payload.previewId);
  }

  onFinalFailure(payload: PreviewJobPayload, cause: FinalFailureCause): Promise<void> {
    return this.analysis.recordFinalFailure(payload.previewId, cause);
  }
}
