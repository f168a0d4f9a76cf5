import type { StoredFailure } from '@mailproof/contracts';
import type { AwaitedJob } from '@mailproof/queue';

/**
 * Where work the API stored and queued stands (a preview's analysis, a gate run), as PostgreSQL says:
 * done with its value, still pending, or failed with the failure its row keeps. `subject` names what
 * the work is about (its ids), for an answer to carry. These are domain values: the controllers and
 * MCP decide what each one is over their transport (problemForFailure for a failure).
 */
export type StoredOutcome<T, Subject> =
  { state: 'done'; value: T } | { state: 'pending'; subject: Subject } | { state: 'failed'; subject: Subject; failure: StoredFailure };

/** Still pending after a wait: the budget the wait had, and whether the job failed an attempt (BullMQ tries it again). */
export interface AwaitedPending<Subject> {
  state: 'pending';
  subject: Subject;
  budgetMs: number;
  retrying: boolean;
}

/** A stored outcome read once the wait for its job ended. */
export type AwaitedOutcome<T, Subject> = Exclude<StoredOutcome<T, Subject>, { state: 'pending' }> | AwaitedPending<Subject>;

export interface StoredWork<Row, T, Subject> {
  /** The wait for the job whose step stores the outcome (awaitJob or watchJob): it never throws and ends within the budget. */
  job: Promise<AwaitedJob<unknown>>;
  budgetMs: number;
  /** Reads the row afresh once the wait ended. */
  reread: () => Promise<Row | null>;
  /** What the row says (a row still queued or running is pending). */
  outcomeOf: (row: Row) => StoredOutcome<T, Subject>;
  /** The subject when the row is gone: still pending, as far as anyone can tell. */
  subject: Subject;
}

/**
 * Awaits stored work's job, then asks PostgreSQL how the work stands: the job's own outcome only says
 * whether an attempt failed (its step stores every outcome, and a job that timed out may have stored
 * one by now).
 */
export async function awaitStoredOutcome<Row, T, Subject>(work: StoredWork<Row, T, Subject>): Promise<AwaitedOutcome<T, Subject>> {
  const job = await work.job;
  const row = await work.reread();
  const outcome: StoredOutcome<T, Subject> = row ? work.outcomeOf(row) : { state: 'pending', subject: work.subject };
  if (outcome.state !== 'pending') return outcome;
  return { ...outcome, budgetMs: work.budgetMs, retrying: job.status === 'failed' };
}
