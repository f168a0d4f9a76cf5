import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { CheckedDeliverabilityResult, LastDrift } from '@mailproof/contracts';
import { PG_SAFE_TEXT } from '../pg-safe-text';

export type MonitoredDomainStatus = 'pending' | 'healthy' | 'degraded' | 'failing';

/** A sending domain an account watches for DNS drift (docs/deliverability.md). */
@Entity({ name: 'monitored_domains' })
export class MonitoredDomainEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  domain: string;

  @Column({ name: 'dkim_selectors', type: 'text', array: true, default: () => "'{}'", transformer: PG_SAFE_TEXT })
  dkimSelectors: string[];

  @Column({ type: 'text', default: 'pending', transformer: PG_SAFE_TEXT })
  status: MonitoredDomainStatus;

  @Column({ type: 'integer', nullable: true })
  score: number | null;

  /** Why the status is what it is when the last audit could not say (no DNS lookup answered); null otherwise. */
  @Column({ name: 'status_reason', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  statusReason: string | null;

  @Column({ name: 'last_checked_at', type: 'timestamptz', nullable: true })
  lastCheckedAt: Date | null;

  /** The last conclusive audit's result, with its checkedAt. */
  @Column({ name: 'last_result', type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  lastResult: CheckedDeliverabilityResult | null;

  /** The drift events of the most recent audit that found any: { detectedAt, auditId, events }. */
  @Column({ name: 'last_drift', type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  lastDrift: LastDrift | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
