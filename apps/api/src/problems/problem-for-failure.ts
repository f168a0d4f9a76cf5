import type { StoredFailure } from '@mailproof/contracts';
import type { AwaitedOutcome, AwaitedPending } from '../common/stored-outcome';
import { ProblemException } from './problem.exception';

/**
 * The problem a stored failure is answered with, over HTTP (problem+json) and MCP (a tool failure)
 * alike: its status from its code, with the subject's ids (and for a compile failure where it failed)
 * beside the message. A failure of any other code is a 500 that carries the workers' fixed sentence.
 */
export function problemForFailure(failure: StoredFailure, subject: Record<string, unknown>): ProblemException {
  switch (failure.code) {
    case 'compile_failed':
      // A message's `reason` says what is wrong with it (docs/messages.md); absent for the other formats.
      return new ProblemException('compile_failed', failure.message, { ...subject, reason: failure.reason, line: failure.line, column: failure.column });
    case 'url_declined':
    case 'url_unreachable':
      return new ProblemException(failure.code, failure.message, { ...subject, errors: [{ field: 'url', message: failure.message }] });
    case 'payload_too_large':
      return new ProblemException('payload_too_large', failure.message, subject);
    default:
      // The stored message is one of the workers' fixed sentences (never an exception's text).
      return new ProblemException('internal_error', failure.message, subject);
  }
}

/**
 * The value of awaited work that is done; otherwise the problem to answer with: a failure's
 * (problemForFailure), or `whilePending`'s for work still pending when the wait ended (a 503).
 */
export function doneOrProblem<T, Subject extends Record<string, unknown>>(
  outcome: AwaitedOutcome<T, Subject>,
  whilePending: (pending: AwaitedPending<Subject>) => ProblemException,
): T {
  if (outcome.state === 'done') return outcome.value;
  throw outcome.state === 'failed' ? problemForFailure(outcome.failure, outcome.subject) : whilePending(outcome);
}
