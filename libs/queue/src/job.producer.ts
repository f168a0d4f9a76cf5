import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Job, JobsOptions, Queue } from 'bullmq';
import { JOB_DEFINITIONS, type JobName, type JobPayload, type JobResult, type QueueName } from '@mailproof/contracts';

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
  ) {
    this.queues = { preview, render, 'dns-audit': dnsAudit, scheduler };
    // BullMQ adds a 'closing' listener per pending command; many concurrent requests are normal here.
    for (const queue of Object.values(this.queues)) queue.setMaxListeners(1_000);
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  async enqueue<N extends JobName>(
    queue: QueueName,
    name: N,
    payload: JobPayload<N>,
    options: Pick<JobsOptions, 'jobId' | 'priority' | 'delay' | 'attempts'> = {},
  ): Promise<TypedJob<N>> {
    const definition = JOB_DEFINITIONS[name];
    if (!definition.queues.includes(queue)) throw new Error(`job ${name} does not run on queue ${queue}`);
    if (options.jobId?.includes(':')) throw new Error(`job id must not contain ':' (${options.jobId})`);
    return (await this.queues[queue].add(name as never, payload as never, options)) as unknown as TypedJob<N>;
  }
}
