import { QueueUnavailableError } from '@mailproof/queue';
import { ProblemException } from '../problems/problem.exception';

/** Seconds a client should wait before retrying work that needs the queues while Redis is unavailable. */
export const QUEUE_RETRY_AFTER_SECONDS = 5;

/**
 * Work that needs a queue when Redis refuses or does not answer within REDIS_COMMAND_TIMEOUT_MS:
 * 503 service_unavailable with Retry-After, at once, instead of a request that waits out the outage.
 * Nothing the request created is kept, so a retry starts afresh. Other errors pass through.
 */
export async function orQueueUnavailable<T>(work: Promise<T>, detail: string, cleanUp?: () => Promise<unknown>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof QueueUnavailableError)) throw error;
    if (cleanUp) await cleanUp();
    throw new ProblemException('service_unavailable', detail, { headers: { 'Retry-After': String(QUEUE_RETRY_AFTER_SECONDS) } });
  }
}
