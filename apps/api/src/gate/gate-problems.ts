import type { AwaitedPending } from '../common/stored-outcome';
import { ProblemException } from '../problems/problem.exception';
import type { GateRunSubject } from './gate.service';

/**
 * A gate run that did not finish within its budget (POST /api/gate, the MCP tool gate_email): 503 with
 * the run's id; its chain still completes, and GET /api/gate/runs/:id returns the verdict then.
 */
export function gateRunNotReadyProblem(pending: AwaitedPending<GateRunSubject>): ProblemException {
  const { runId } = pending.subject;
  return new ProblemException(
    'service_unavailable',
    `The gate run did not finish within ${pending.budgetMs} ms; GET /api/gate/runs/${runId} returns its verdict when ready.`,
    {
      runId,
      headers: { 'Retry-After': '5' },
    },
  );
}
