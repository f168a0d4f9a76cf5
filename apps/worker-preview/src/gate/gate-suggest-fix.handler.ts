import { Injectable } from '@nestjs/common';
import type { GateRunJobPayload, GateSuggestFixJobResult } from '@mailproof/contracts';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { GateRunService } from './gate-run.service';

/** `gate.suggest-fix`: a failed verdict's suggested fix, after the verdict (the API does not await it). */
@Injectable()
export class GateSuggestFixHandler implements JobHandler<'gate.suggest-fix'> {
  readonly jobName = 'gate.suggest-fix';

  constructor(private readonly gateRuns: GateRunService) {}

  handle(payload: GateRunJobPayload): Promise<GateSuggestFixJobResult> {
    return this.gateRuns.settleSuggestedFix(payload.runId);
  }

  onFinalFailure(payload: GateRunJobPayload, cause: FinalFailureCause): Promise<void> {
    return this.gateRuns.settleWithoutSuggestedFix(payload.runId, cause);
  }
}
