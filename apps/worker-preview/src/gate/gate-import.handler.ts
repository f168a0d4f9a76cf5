import { Injectable } from '@nestjs/common';
import type { GateImportJobResult, GateRunJobPayload } from '@mailproof/contracts';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { GateRunService } from './gate-run.service';

/** `gate.import`: fetch a URL run's email into its preview (the first step of its chain). */
@Injectable()
export class GateImportHandler implements JobHandler<'gate.import'> {
  readonly jobName = 'gate.import';

  constructor(private readonly gateRuns: GateRunService) {}

  handle(payload: GateRunJobPayload): Promise<GateImportJobResult> {
    return this.gateRuns.importEmail(payload.runId);
  }

  onFinalFailure(payload: GateRunJobPayload, cause: FinalFailureCause): Promise<void> {
    return this.gateRuns.recordFinalFailure(payload.runId, cause);
  }
}
