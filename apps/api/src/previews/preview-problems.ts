import type { AwaitedPending } from '../common/stored-outcome';
import { ProblemException } from '../problems/problem.exception';
import type { PreviewSubject } from './previews.service';

/**
 * A new preview no worker analyzed within PREVIEW_BUDGET_MS (POST /api/preview, the MCP email tools):
 * 503 with its id, which GET /api/preview/:id answers once the job, still queued, has run.
 */
export function previewNotReadyProblem(pending: AwaitedPending<PreviewSubject>): ProblemException {
  const { id } = pending.subject;
  const detail = pending.retrying
    ? 'The preview could not be analyzed yet; it will be retried.'
    : `The preview was not analyzed within ${pending.budgetMs} ms; it stays queued. GET /api/preview/${id} returns it when ready.`;
  return new ProblemException('service_unavailable', detail, { id, headers: { 'Retry-After': '5' } });
}
