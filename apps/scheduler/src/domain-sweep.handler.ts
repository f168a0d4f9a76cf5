import { Injectable } from '@nestjs/common';
import type { DomainSweepJobResult } from '@mailproof/contracts';
import type { JobContext, JobHandler } from '@mailproof/queue';
import { DriftSweepService } from './drift-sweep.service';

/** `domain-sweep.run`: fan out one drift audit per monitored domain for the window the run was meant for. */
@Injectable()
export class DomainSweepHandler implements JobHandler<'domain-sweep.run'> {
  readonly jobName = 'domain-sweep.run';

  constructor(private readonly driftSweep: DriftSweepService) {}

  handle(_payload: unknown, context: JobContext): Promise<DomainSweepJobResult> {
    // The moment the scheduler meant this run for, not when a worker got to it: a late sweep still belongs to its window.
    return this.driftSweep.sweep(context.scheduledFor);
  }
}
