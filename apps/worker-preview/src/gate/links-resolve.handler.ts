import { Injectable } from '@nestjs/common';
import type { LinksResolveJobPayload, LinksResolveJobResult } from '@mailproof/contracts';
import type { FinalFailureCause, JobHandler } from '@mailproof/queue';
import { GateRunService } from './gate-run.service';

/** `links.resolve`: check a run's links until its deadline (resolveLinks runs only). */
@Injectable()
export class LinksResolveHandler implements JobHandler<'links.resolve'> {
  readonly jobName = 'links.resolve';

  constructor(private readonly gateRuns: GateRunService) {}

  handle(payload: LinksResolveJobPayload): Promise<LinksResolveJobResult> {
    return this.gateRuns.resolveLinks(payload.runId, payload.deadline);
  }

  onFinalFailure(payload: LinksResolveJobPayload, cause: FinalFailureCause): Promise<void> {
    return this.gateRuns.recordFinalFailure(payload.runId, cause);
  }
}
