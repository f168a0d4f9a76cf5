import type { QueueName } from '@mailproof/contracts';

/**
 * Redis did not take the job (or let us listen for it) in time: refused, frozen or out of memory.
 * The job may still reach the queue later when the command was sent before Redis stopped
 * answering, so producers treat it as "not queued, as far as anyone knows" and jobs stay idempotent.
 */
export class QueueUnavailableError extends Error {
  constructor(
    readonly queue: QueueName,
    reason: string,
  ) {
    super(`queue ${queue} is unavailable: ${reason}`);
    this.name = 'QueueUnavailableError';
  }
}
