import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { MailproofConfig } from '@mailproof/config';
import { PREVIEW_CLEANUP_JOB, type PreviewCleanupJobPayload, type PreviewCleanupJobResult } from '@mailproof/contracts';
import {
  DataKeyRepository,
  FixRunRepository,
  JOB_CHAIN_LIFETIME_MS,
  PreviewRepository,
  RetentionRepository,
  utcDay,
  webhookDeliveryLifetimeMs,
} from '@mailproof/persistence';
import { upsertRepeatingJob } from '@mailproof/queue';

export const PREVIEW_CLEANUP_SCHEDULER_ID = 'anonymous-preview-cleanup';

/**
 * Anonymous previews live 24 hours, and so does every fix run (POST /api/fix). A BullMQ job scheduler (one per deployment) runs
 * `preview-cleanup.run` every PREVIEW_CLEANUP_EVERY_MINUTES (at most 60); the deletes are idempotent, so an extra run does no harm.
 * The same run sweeps what is past its account's retention (RetentionRepository.sweep): so nothing outlives its time by more than
 * the interval, an hour at most (docs/privacy.md).
 */
@Injectable()
export class PreviewCleanupService implements OnApplicationBootstrap {
  private readonly logger = new Logger('PreviewCleanup');

  constructor(
    private readonly config: MailproofConfig,
    private readonly previews: PreviewRepository,
    private readonly fixRuns: FixRunRepository,
    private readonly retention: RetentionRepository,
    private readonly dataKeys: DataKeyRepository,
    @InjectQueue('scheduler') private readonly queue: Queue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const data: PreviewCleanupJobPayload = { schemaVersion: 1 };
    await upsertRepeatingJob(this.queue, PREVIEW_CLEANUP_SCHEDULER_ID, this.config.previews.cleanupEveryMinutes * 60_000, PREVIEW_CLEANUP_JOB.name, data);
  }

  async deleteExpired(now = new Date()): Promise<PreviewCleanupJobResult> {
    const deleted = await this.previews.deleteExpired(now);
    if (deleted > 0) this.logger.log(`deleted ${deleted} expired anonymous previews`);
    const fixRunsDeleted = await this.fixRuns.deleteExpired(now);
    if (fixRunsDeleted > 0) this.logger.log(`deleted ${fixRunsDeleted} expired fix runs`);
    // Work still under way is waited for, a lost job's (a preview still queued, a delivery still pending) no longer than it could live.
    const swept = await this.retention.sweep(now, { jobsMs: JOB_CHAIN_LIFETIME_MS, webhookDeliveriesMs: webhookDeliveryLifetimeMs(this.config.webhooks) });
    if (swept.previewsPurged + swept.fixRunsDeleted + swept.webhookEventsDeleted > 0) {
      this.logger.log(
        `retention: content of ${swept.previewsPurged} previews, ${swept.fixRunsDeleted} fix runs and ${swept.webhookEventsDeleted} webhook events removed`,
      );
    }
    const anonymousDataKeysShredded = await this.dataKeys.destroyAnonymousBefore(this.lastShreddableDay(now));
    return {
      anonymousDataKeysShredded,
      deleted,
      fixRunsDeleted,
      previewsPurged: swept.previewsPurged,
      fixRunsRetentionDeleted: swept.fixRunsDeleted,
      webhookEventsDeleted: swept.webhookEventsDeleted,
      screenshotImagesDeleted: swept.screenshotImagesDeleted,
    };
  }

  /**
   * Anonymous content is sealed with its UTC day's data key (docs/privacy.md) and lives ANONYMOUS_PREVIEW_TTL_HOURS at
   * most, fix runs included: a day's key seals nothing readable once that long (and an hour's margin for a late job)
   * has passed since the day ended, so the days before the one this returns are shredded.
   */
  private lastShreddableDay(now: Date): string {
    return utcDay(new Date(now.getTime() - (this.config.previews.anonymousTtlHours + 1) * 3_600_000));
  }
}
