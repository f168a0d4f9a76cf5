import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { DeliverabilityResult } from '@mailproof/contracts';
import { DomainAuditEntity } from '../entities/domain-audit.entity';
import { DriftEventEntity } from '../entities/drift-event.entity';
import { MonitoredDomainEntity, type MonitoredDomainStatus } from '../entities/monitored-domain.entity';
import { WebhookRepository, type NewWebhookEvent } from './webhook.repository';

export interface NewDomainAudit {
  jobId: string;
  monitoredDomainId: string | null;
  accountId: string | null;
  domain: string;
  trigger: string;
  windowKey: string | null;
  score: number | null;
  inconclusive: boolean;
  result: DeliverabilityResult;
  checkedAt: Date;
}

export interface NewDriftEvent {
  kind: string;
  check: string;
  previous: unknown;
  current: unknown;
  message: string;
}

/** The monitored domain's columns an audit may set. */
export type MonitoredDomainUpdate = Partial<Pick<MonitoredDomainEntity, 'lastCheckedAt' | 'score' | 'status' | 'statusReason' | 'lastResult' | 'lastDrift'>>;

/** What storing an audit changes besides its own row, decided by the caller and written as given. */
export interface MonitoredDomainChange {
  /** Stored as this audit's drift events against `previous`, detected at the audit's checkedAt. */
  driftEvents: NewDriftEvent[];
  domain: MonitoredDomainUpdate;
  /** Webhook events to record with the audit (drift, status change), in the same transaction. */
  webhookEvents?: NewWebhookEvent[];
}

/** The monitored domain as it was before this audit, read under its lock. */
export interface LockedMonitoredDomain {
  id: string;
  accountId: string;
  domain: string;
  status: MonitoredDomainStatus;
}

/**
 * Decides a monitored domain's change from the audit just stored and the domain's latest conclusive
 * audit before it (null when there is none). Called inside the transaction, under the domain's lock.
 */
export type DecideDomainChange = (stored: DomainAuditEntity, previous: DomainAuditEntity | null, domain: LockedMonitoredDomain) => MonitoredDomainChange;

/** `webhookDeliveries`: the deliveries the audit's webhook events created, for the caller to queue after the commit. */
export type RecordAuditOutcome =
  | { status: 'stored' | 'already_stored'; audit: DomainAuditEntity; driftEvents: number; webhookDeliveries: string[] }
  | { status: 'window_taken' | 'domain_gone'; audit: null; driftEvents: 0; webhookDeliveries: [] };

@Injectable()
export class DomainAuditRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhookRepository,
  ) {}

  findByJobId(jobId: string): Promise<DomainAuditEntity | null> {
    return this.dataSource.getRepository(DomainAuditEntity).findOneBy({ jobId });
  }

  async hasWindowAudit(monitoredDomainId: string, windowKey: string): Promise<boolean> {
    return (await this.dataSource.getRepository(DomainAuditEntity).countBy({ monitoredDomainId, windowKey })) > 0;
  }

  history(monitoredDomainId: string, limit: number): Promise<DomainAuditEntity[]> {
    return this.dataSource.getRepository(DomainAuditEntity).find({ where: { monitoredDomainId }, order: { checkedAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /**
   * The lowest conclusive score of each day since `since`, oldest first: a year of 6-hourly audits
   * is 365 points, read from domain_audits_history_idx without the audits' results.
   */
  async dailyScores(monitoredDomainId: string, since: Date): Promise<Array<{ day: Date; score: number }>> {
    const rows: Array<{ day: Date; score: number }> = await this.dataSource.query(
      `SELECT date_trunc('day', checked_at) AS day, min(score)::int AS score FROM domain_audits
       WHERE monitored_domain_id = $1 AND checked_at >= $2 AND NOT inconclusive
       GROUP BY 1 ORDER BY 1`,
      [monitoredDomainId, since],
    );
    return rows;
  }

  driftEvents(monitoredDomainId: string, limit: number): Promise<DriftEventEntity[]> {
    return this.dataSource
      .getRepository(DriftEventEntity)
      .find({ where: { monitoredDomainId }, order: { detectedAt: 'DESC', kind: 'ASC', check: 'ASC' }, take: limit });
  }

  /**
   * Stores one audit idempotently. For a monitored domain it runs under a lock on the domain row,
   * so concurrent audits of one domain are decided one after the other, and writes the drift events
   * and domain columns that `decide` returns. What counts as drift and which status a score earns
   * is the caller's business.
   */
  async record(audit: NewDomainAudit, decide: DecideDomainChange): Promise<RecordAuditOutcome> {
    return this.dataSource.transaction(async (manager) => {
      let locked: LockedMonitoredDomain | null = null;
      if (audit.monitoredDomainId) {
        const rows: Array<{ id: string; account_id: string; domain: string; status: MonitoredDomainStatus }> = await manager.query(
          'SELECT id, account_id, domain, status FROM monitored_domains WHERE id = $1 FOR UPDATE',
          [audit.monitoredDomainId],
        );
        if (rows.length === 0) return { status: 'domain_gone', audit: null, driftEvents: 0, webhookDeliveries: [] };
        locked = { id: rows[0].id, accountId: rows[0].account_id, domain: rows[0].domain, status: rows[0].status };
      }
      const audits = manager.getRepository(DomainAuditEntity);
      const existing = await audits.findOneBy({ jobId: audit.jobId });
      if (existing) return { status: 'already_stored', audit: existing, driftEvents: 0, webhookDeliveries: [] };
      if (
        audit.monitoredDomainId &&
        audit.windowKey &&
        (await audits.countBy({ monitoredDomainId: audit.monitoredDomainId, windowKey: audit.windowKey })) > 0
      ) {
        return { status: 'window_taken', audit: null, driftEvents: 0, webhookDeliveries: [] };
      }
      const monitoredDomainId = audit.monitoredDomainId;
      const previous = monitoredDomainId ? await this.previousConclusive(manager, monitoredDomainId) : null;
      const stored = await audits.save(audits.create(audit));
      if (!monitoredDomainId || !locked) return { status: 'stored', audit: stored, driftEvents: 0, webhookDeliveries: [] };

      const change = decide(stored, previous, locked);
      if (change.driftEvents.length > 0) {
        const drift = manager.getRepository(DriftEventEntity);
        await drift.save(
          change.driftEvents.map((event) =>
            drift.create({ ...event, monitoredDomainId, auditId: stored.id, previousAuditId: previous?.id ?? null, detectedAt: stored.checkedAt }),
          ),
        );
      }
      // jsonb columns defeat TypeORM's deep-partial typing; MonitoredDomainUpdate types the shape.
      await manager.getRepository(MonitoredDomainEntity).update({ id: monitoredDomainId }, change.domain as never);
      const webhookDeliveries: string[] = [];
      for (const event of change.webhookEvents ?? []) webhookDeliveries.push(...(await this.webhooks.recordEvent(manager, event)));
      return { status: 'stored', audit: stored, driftEvents: change.driftEvents.length, webhookDeliveries };
    });
  }

  private previousConclusive(manager: EntityManager, monitoredDomainId: string): Promise<DomainAuditEntity | null> {
    return manager.getRepository(DomainAuditEntity).findOne({ where: { monitoredDomainId, inconclusive: false }, order: { checkedAt: 'DESC', id: 'DESC' } });
  }
}
