import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MailproofConfig } from '@mailproof/config';
import { probeJob, type ProbeJobResult, type QueueName } from '@mailproof/contracts';
import { JobProbeRepository } from '@mailproof/persistence';
import { JobProducer, QueueEventsRegistry, awaitJob } from '@mailproof/queue';
import { orQueueUnavailable } from '../common/queue-unavailable';
import { ProblemException } from '../problems/problem.exception';
import type { RoundTripResponse } from './dto/round-trip.response';

/** API -> Redis -> worker app -> PostgreSQL -> API, within a budget. */
@Injectable()
export class RoundTripService {
  constructor(
    private readonly config: MailproofConfig,
    private readonly jobs: JobProducer,
    private readonly queueEvents: QueueEventsRegistry,
    private readonly probes: JobProbeRepository,
  ) {}

  async run(queue: QueueName, budgetMs = this.config.budgets.roundTripMs): Promise<RoundTripResponse> {
    const started = Date.now();
    const unavailable = `The ${queue} queue is unavailable (Redis does not answer). Retry shortly.`;
    const events = await orQueueUnavailable(this.queueEvents.getWithin(queue, this.config.redis.commandTimeoutMs), unavailable);
    const nonce = randomUUID();
    const job = await orQueueUnavailable(this.jobs.enqueue(probeJob(queue, nonce)), unavailable);
    const outcome = await awaitJob<ProbeJobResult>(job, this.jobs.queue(queue), events, budgetMs - (Date.now() - started));
    if (outcome.status === 'failed') {
      throw new ProblemException('service_unavailable', 'The worker failed the probe job.', { jobId: job.id });
    }
    // Answer from PostgreSQL, the source of truth, not from the queue's copy of the result.
    const row = outcome.status === 'completed' ? await this.probes.find(String(job.id)) : null;
    if (!row) {
      throw new ProblemException('service_unavailable', `No ${queue} worker answered within ${budgetMs} ms; the job stays queued.`, {
        jobId: job.id,
        headers: { 'Retry-After': '5' },
      });
    }
    return {
      jobId: row.jobId,
      queue: row.queue,
      status: 'completed',
      workerId: row.workerId,
      processedAt: row.processedAt.toISOString(),
      elapsedMs: Date.now() - started,
    };
  }
}
