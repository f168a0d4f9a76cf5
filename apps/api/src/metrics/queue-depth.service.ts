import { Injectable } from '@nestjs/common';
import { QUEUE_NAMES, type QueueName } from '@mailproof/contracts';
import { JobProducer } from '@mailproof/queue';

/** One queue's jobs by state, as an autoscaler reads them. */
export interface QueueDepth {
  /** What a worker pool has to take next: `waiting` + `prioritized` (KEDA scales on this). */
  backlog: number;
  /** BullMQ's `wait` list: jobs queued without a priority (a paused queue's jobs are here too). */
  waiting: number;
  /** BullMQ's `prioritized` set: jobs queued with a priority, which a `LLEN` of the wait list misses. */
  prioritized: number;
  /** Jobs whose start lies ahead (a backoff before a retry, a delayed job): not work for now. */
  delayed: number;
  /** Jobs a worker holds right now. */
  active: number;
}

export interface QueueDepths {
  queues: Record<QueueName, QueueDepth>;
}

/**
 * The depth of every queue, read from Redis on each call (BullMQ's getJobCounts: one round trip per
 * queue). Served as `GET /metrics/queues` for KEDA's metrics-api trigger and as the
 * `mailproof_queue_backlog` gauge on `/metrics` (docs/deploy.md, "Autoscaling on backlog").
 */
@Injectable()
export class QueueDepthService {
  constructor(private readonly jobs: JobProducer) {}

  async read(): Promise<QueueDepths> {
    const entries = await Promise.all(QUEUE_NAMES.map(async (queue) => [queue, await this.readOne(queue)] as const));
    return { queues: Object.fromEntries(entries) as Record<QueueName, QueueDepth> };
  }

  private async readOne(queue: QueueName): Promise<QueueDepth> {
    const counts = await this.jobs.queue(queue).getJobCounts('waiting', 'prioritized', 'delayed', 'active');
    const [waiting, prioritized, delayed, active] = [counts.waiting, counts.prioritized, counts.delayed, counts.active].map((count) => count ?? 0);
    return { backlog: waiting + prioritized, waiting, prioritized, delayed, active };
  }
}
