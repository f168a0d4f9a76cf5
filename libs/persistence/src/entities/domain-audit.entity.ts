import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One DNS audit: on demand, on adding a monitored domain, or by the scheduler (one per window). */
@Entity({ name: 'domain_audits' })
export class DomainAuditEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The BullMQ job that produced it; unique, so a redelivered job finds its own row. */
  @Column({ name: 'job_id', type: 'text', unique: true })
  jobId: string;

  @Column({ name: 'monitored_domain_id', type: 'uuid', nullable: true })
  monitoredDomainId: string | null;

  @Column({ name: 'account_id', type: 'uuid', nullable: true })
  accountId: string | null;

  @Column({ type: 'text' })
  domain: string;

  @Column({ type: 'text' })
  trigger: string;

  /** `<intervalMs>-<index>` of the scheduling window; unique per monitored domain. */
  @Column({ name: 'window_key', type: 'text', nullable: true })
  windowKey: string | null;

  @Column({ type: 'integer' })
  score: number;

  /** Every record was skipped (resolver outage): says nothing about the domain. */
  @Column({ type: 'boolean' })
  inconclusive: boolean;

  @Column({ type: 'jsonb' })
  result: Record<string, unknown>;

  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
