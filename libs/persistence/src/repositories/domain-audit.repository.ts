import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainAuditEntity } from '../entities/domain-audit.entity';
import { DriftEventEntity } from '../entities/drift-event.entity';
import { MonitoredDomainEntity, type MonitoredDomainStatus } from '../entities/monitored-domain.entity';

export interface NewDomainAudit {
  jobId: string;
  monitoredDomainId: string | null;
  accountId: string | null;
  domain: string;
  trigger: string;
  windowKey: string | null;
  score: number;
  inconclusive: boolean;
  result: Record<string, unknown>;
  checkedAt: Date;
}

export interface NewDriftEvent {
  kind: string;
  check: string;
  previous: unknown;
  current: unknown;
  message: string;
}

export interface RecordAuditHooks {
  /** Drift between the previous conclusive audit and this one (not called for the first audit). */
  drift(previous: DomainAuditEntity): NewDriftEvent[];
  /** The monitored domain's status for a conclusive score. */
  statusFor(score: number): MonitoredDomainStatus;
}

export type RecordAuditOutcome =
  | { status: 'stored' | 'already_stored'; audit: DomainAuditEntity; driftEvents: number }
  | { status: 'window_taken' | 'domain_gone'; audit: null; driftEvents: 0 };

@Injectable()
export class DomainAuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  findByJobId(jobId: string): Promise<DomainAuditEntity | null> {
    return this.dataSource.getRepository(DomainAuditEntity).findOneBy({ jobId });
  }

  async hasWindowAudit(monitoredDomainId: string, windowKey: string): Promise<boolean> {
    return (await this.dataSource.getRepository(DomainAuditEntity).countBy({ monitoredDomainId, windowKey })) > 0;
  }

  history(monitoredDomainId: string, limit: number): Promise<DomainAuditEntity[]> {
    return this.dataSource.getRepository(DomainAuditEntity).find({ where: { monitoredDomainId }, order: { checkedAt: 'DESC', id: 'DESC' }, take: limit });
  }

  driftEvents(monitoredDomainId: string, limit: number): Promise<DriftEventEntity[]> {
    return this.dataSource.getRepository(DriftEventEntity).find({ where: { monitoredDomainId }, order: { detectedAt: 'DESC', kind: 'ASC', check: 'ASC' }, take: limit });
  }

  /**
   * Stores one audit idempotently. For a monitored domain it runs under a lock on the domain row
   * so concurrent audits of one domain are diffed one after the other, stores the drift events
   * and moves the domain's score, status and last result (an inconclusive audit only touches
   * lastCheckedAt: an outage is not news about the domain).
   */
  async record(audit: NewDomainAudit, hooks: RecordAuditHooks): Promise<RecordAuditOutcome> {
    return this.dataSource.transaction(async (manager) => {
      if (audit.monitoredDomainId) {
        const locked = await manager.query('SELECT id FROM monitored_domains WHERE id = $1 FOR UPDATE', [audit.monitoredDomainId]);
        if (locked.length === 0) return { status: 'domain_gone', audit: null, driftEvents: 0 };
      }
      const audits = manager.getRepository(DomainAuditEntity);
      const existing = await audits.findOneBy({ jobId: audit.jobId });
      if (existing) return { status: 'already_stored', audit: existing, driftEvents: 0 };
      if (audit.monitoredDomainId && audit.windowKey && (await audits.countBy({ monitoredDomainId: audit.monitoredDomainId, windowKey: audit.windowKey })) > 0) {
        return { status: 'window_taken', audit: null, driftEvents: 0 };
      }
      const previous = audit.monitoredDomainId ? await this.previousConclusive(manager, audit.monitoredDomainId) : null;
      const stored = await audits.save(audits.create(audit));
      if (!audit.monitoredDomainId) return { status: 'stored', audit: stored, driftEvents: 0 };

      const events = audit.inconclusive || !previous ? [] : hooks.drift(previous);
      if (events.length > 0) {
        const drift = manager.getRepository(DriftEventEntity);
        await drift.save(
          events.map((event) => drift.create({ ...event, monitoredDomainId: audit.monitoredDomainId as string, auditId: stored.id, previousAuditId: previous?.id ?? null, detectedAt: audit.checkedAt })),
        );
      }
      const update: Partial<MonitoredDomainEntity> = { lastCheckedAt: audit.checkedAt };
      if (!audit.inconclusive) {
        Object.assign(update, { score: audit.score, status: hooks.statusFor(audit.score), lastResult: { ...audit.result, checkedAt: audit.checkedAt.toISOString() } });
      }
      if (events.length > 0) update.lastDrift = { detectedAt: audit.checkedAt.toISOString(), auditId: stored.id, events };
      // jsonb columns defeat TypeORM's deep-partial typing; the shape is checked above.
      await manager.getRepository(MonitoredDomainEntity).update({ id: audit.monitoredDomainId }, update as never);
      return { status: 'stored', audit: stored, driftEvents: events.length };
    });
  }

  private previousConclusive(manager: EntityManager, monitoredDomainId: string): Promise<DomainAuditEntity | null> {
    return manager.getRepository(DomainAuditEntity).findOne({ where: { monitoredDomainId, inconclusive: false }, order: { checkedAt: 'DESC', id: 'DESC' } });
  }
}
