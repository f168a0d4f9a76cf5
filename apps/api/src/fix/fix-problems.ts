import type { AwaitedPending } from '../common/stored-outcome';
import { ProblemException } from '../problems/problem.exception';
import type { FixSubject } from './fix.service';

/**
 * A new fix run no worker finished within PREVIEW_BUDGET_MS (POST /api/fix, MCP fix_email): 503 with its
 * id, which GET /api/fix/:id answers once the job, still queued, has run.
 */
export function fixNotReadyProblem(pending: AwaitedPending<FixSubject>): ProblemException {
  const { id } = pending.subject;
  const detail = pending.retrying
    ? 'The email could not be fixed yet; it will be retried.'
    : `The email was not fixed within ${pending.budgetMs} ms; it stays queued. GET /api/fix/${id} returns the answer when ready.`;
  return new ProblemException('service_unavailable', detail, { id, headers: { 'Retry-After': '5' } });
}
