import { Injectable } from '@nestjs/common';
import type { PreviewJobPayload, PreviewJobResult } from '@mailproof/contracts';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { PreviewAnalysisService } from './preview-analysis.service';

/** `preview.analyze`: compile and analyze one stored preview; a failure for good is stored on the preview. */
@Injectable()
export class PreviewAnalyzeHandler implements JobHandler<'preview.analyze'> {
  readonly jobName = 'preview.analyze';

  constructor(private readonly analysis: PreviewAnalysisService) {}

  handle(payload: PreviewJobPayload): Promise<PreviewJobResult> {
    return this.analysis.analyze(payload.previewId, { bulk: payload.bulk === true, gate: payload.gate });
  }

  onFinalFailure(payload: PreviewJobPayload, cause: FinalFailureCause): Promise<void> {
    return this.analysis.recordFinalFailure(payload.previewId, cause);
  }
}
