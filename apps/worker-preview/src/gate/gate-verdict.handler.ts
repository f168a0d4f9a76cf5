import { Injectable } from '@nestjs/common';
import type { GateRunJobPayload, GateVerdictJobResult } from '@mailproof/contracts';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { GateRunService } from './gate-run.service';

/** `gate.verdict`: decide a run against its ref's baseline (the last step of its chain; the API awaits it). */
@Injectable()
export class GateVerdictHandler implements JobHandler<'gate.verdict'> {
  readonly jobName = 'gate.verdict';

  constructor(private readonly gateRuns: GateRunService) {}

  handle(payload: GateRunJobPayload): Promise<GateVerdictJobResult> {
    return this.gateRuns.decide(payload.runId);
  }

  onFinalFailure(payload: GateRunJobPayload, cause: FinalFailureCause): Promise<void> {
    return this.gateRuns.recordFinalFailure(payload.runId, cause);
  }
}
