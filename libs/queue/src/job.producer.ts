import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Job, JobsOptions, Queue } from 'bullmq';
import { JOB_DEFINITIONS, type JobName, type JobPayload, type JobResult, type QueueName } from '@mailproof/contracts';
import { withDeadline } from './deadline';
import { QueueUnavailableError } from './queue-unavailable.error';

/** The deadline (ms) of one enqueue; provided only where requests wait on it (the API). */
export const ENQUEUE_DEADLINE_MS = Symbol('ENQUEUE_DEADLINE_MS');

export type TypedJob<N extends JobName> = Job<JobPayload<N>, JobResult<N>, N>;

/** The one typed way to put a job on a queue. */
@Injectable()
export class JobProducer {
  private readonly queues: Record<QueueName, Queue>;

  constructor(
    @InjectQueue('preview') preview: Queue,
    @InjectQueue('render') render: Queue,
    @InjectQueue('dns-audit') dnsAudit: Queue,
    @InjectQueue('scheduler') scheduler: Queue,
    @Optional() @Inject(ENQUEUE_DEADLINE_MS) private readonly deadlineMs?: number,
  ) {
    this.queues = { preview, render, 'dns-audit': dnsAudit, scheduler };
    // BullMQ adds a 'closing' listener per pending command; many concurrent requests are normal here.
    for (const queue of Object.values(this.queues)) queue.setMaxListeners(1_000);
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  /**
   * Adds the job. Any failure to add it (Redis refusing, not answering within the deadline, out of
   * memory) is a QueueUnavailableError. With a deadline, a job whose command was sent before Redis
   * froze may still be added once it thaws: job ids are deterministic and jobs idempotent for that.
   */
  async enqueue<N extends JobName>(
    queue: QueueName,
    name: N,
    payload: JobPayload<N>,
    options: Pick<JobsOptions, 'jobId' | 'priority' | 'delay' | 'attempts'> = {},
  ): Promise<TypedJob<N>> {
    const definition = JOB_DEFINITIONS[name];
    if (!definition.queues.includes(queue)) throw new Error(`job ${name} does not run on queue ${queue}`);
    if (options.jobId?.includes(':')) throw new Error(`job id must not contain ':' (${options.jobId})`);
    const adding = this.queues[queue].add(name as never, payload as never, options) as Promise<unknown> as Promise<TypedJob<N>>;
    const bounded =
      this.deadlineMs === undefined
        ? adding
        : withDeadline(adding, this.deadlineMs, () => new QueueUnavailableError(queue, `Redis did not take the job within ${this.deadlineMs} ms`));
    return bounded.catch((error: unknown) => {
      if (error instanceof QueueUnavailableError) throw error;
      throw new QueueUnavailableError(queue, error instanceof Error ? error.message : String(error));
    });
  }
}
