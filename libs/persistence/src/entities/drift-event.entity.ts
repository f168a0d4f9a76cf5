import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { PG_SAFE_TEXT } from '../pg-safe-text';

/** One change between two consecutive audits of a monitored domain (engine diffAudits). */
@Entity({ name: 'drift_events' })
export class DriftEventEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'monitored_domain_id', type: 'uuid' })
  monitoredDomainId: string;

  @Column({ name: 'audit_id', type: 'uuid' })
  auditId: string;

  @Column({ name: 'previous_audit_id', type: 'uuid', nullable: true })
  previousAuditId: string | null;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  kind: string;

  @Column({ name: 'check_name', type: 'text', transformer: PG_SAFE_TEXT })
  check: string;

  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  previous: unknown;

  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  current: unknown;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  message: string;

  @Column({ name: 'detected_at', type: 'timestamptz' })
  detectedAt: Date;
}
