import { Injectable } from '@nestjs/common';
import type { DriftSweepJobResult } from '@mailproof/contracts';
import type { JobContext, JobHandler } from '@mailproof/queue';
import { DriftSweepService } from './drift-sweep.service';

/** `drift-sweep.run`: fan out one drift audit per monitored domain for the window the run was meant for. */
@Injectable()
export class DriftSweepHandler implements JobHandler<'drift-sweep.run'> {
  readonly jobName = 'drift-sweep.run';

  constructor(private readonly driftSweep: DriftSweepService) {}

  handle(_payload: unknown, context: JobContext): Promise<DriftSweepJobResult> {
    // The moment the scheduler meant this run for, not when a worker got to it: a late sweep still belongs to its window.
    return this.driftSweep.sweep(context.scheduledFor);
  }
}
