import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { DRIFT_SWEEP_JOB, type DriftSweepJobPayload } from '@mailproof/contracts';
import { upsertRepeatingJob } from '@mailproof/queue';

/** One id for the whole deployment: every replica upserts the same BullMQ job scheduler. */
export const DRIFT_SWEEP_SCHEDULER_ID = 'domain-drift-sweep';

/**
 * Registers the BullMQ job scheduler that produces one `drift-sweep.run` per
 * DOMAIN_AUDIT_INTERVAL. Upserting is idempotent, so any number of scheduler replicas (and
 * restarts) leave exactly one schedule in Redis, and a changed interval replaces the old one.
 */
@Injectable()
export class DriftScheduleService implements OnApplicationBootstrap {
  private readonly logger = new Logger('DriftSchedule');

  constructor(
    private readonly config: MailproofConfig,
    @InjectQueue('scheduler') private readonly queue: Queue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const every = this.config.deliverability.auditIntervalMs;
    const data: DriftSweepJobPayload = { schemaVersion: 1 };
    await upsertRepeatingJob(this.queue, DRIFT_SWEEP_SCHEDULER_ID, every, DRIFT_SWEEP_JOB.name, data);
    this.logger.log(`drift sweep every ${every} ms`);
  }
}
