import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { DeliverabilityResult } from '@mailproof/contracts';
import { PG_SAFE_TEXT } from '../pg-safe-text';

/** One DNS audit: on demand, on adding a monitored domain, or by the scheduler (one per window). */
@Entity({ name: 'domain_audits' })
export class DomainAuditEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The BullMQ job that produced it; unique, so a redelivered job finds its own row. */
  @Column({ name: 'job_id', type: 'text', unique: true, transformer: PG_SAFE_TEXT })
  jobId: string;

  @Column({ name: 'monitored_domain_id', type: 'uuid', nullable: true })
  monitoredDomainId: string | null;

  @Column({ name: 'account_id', type: 'uuid', nullable: true })
  accountId: string | null;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  domain: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  trigger: string;

  /** `<intervalMs>-<index>` of the scheduling window; unique per monitored domain. */
  @Column({ name: 'window_key', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  windowKey: string | null;

  /** null when the audit is inconclusive. */
  @Column({ type: 'integer', nullable: true })
  score: number | null;

  /** Every record was skipped (resolver outage): says nothing about the domain. */
  @Column({ type: 'boolean' })
  inconclusive: boolean;

  @Column({ type: 'jsonb', transformer: PG_SAFE_TEXT })
  result: DeliverabilityResult;

  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
