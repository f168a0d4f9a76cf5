import { Column, Entity, PrimaryColumn } from 'typeorm';
import { PG_SAFE_TEXT } from '../pg-safe-text';

/** One row per processed `probe.run` job; upserted, so a redelivered job changes nothing. */
@Entity({ name: 'job_probes' })
export class JobProbeEntity {
  @PrimaryColumn({ name: 'job_id', type: 'text', transformer: PG_SAFE_TEXT })
  jobId: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  queue: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  nonce: string;

  @Column({ name: 'worker_id', type: 'text', transformer: PG_SAFE_TEXT })
  workerId: string;

  @Column({ name: 'processed_at', type: 'timestamptz' })
  processedAt: Date;
}
