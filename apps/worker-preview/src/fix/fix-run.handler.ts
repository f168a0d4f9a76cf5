import { Injectable } from '@nestjs/common';
import type { FixJobPayload, FixJobResult } from '@mailproof/contracts';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { FixRunService } from './fix-run.service';

/** `fix.run`: compile one stored fix run and apply its fixes; a failure for good is stored on the run. */
@Injectable()
export class FixRunHandler implements JobHandler<'fix.run'> {
  readonly jobName = 'fix.run';

  constructor(private readonly fixRuns: FixRunService) {}

  handle(payload: FixJobPayload): Promise<FixJobResult> {
    return this.fixRuns.run(payload.fixRunId);
  }

  onFinalFailure(payload: FixJobPayload, cause: FinalFailureCause): Promise<void> {
    return this.fixRuns.recordFinalFailure(payload.fixRunId, cause);
  }
}
