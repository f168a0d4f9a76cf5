import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per processed `probe.run` job; upserted, so a redelivered job changes nothing. */
@Entity({ name: 'job_probes' })
export class JobProbeEntity {
  @PrimaryColumn({ name: 'job_id', type: 'text' })
  jobId: string;

  @Column({ type: 'text' })
  queue: string;

  @Column({ type: 'text' })
  nonce: string;

  @Column({ name: 'worker_id', type: 'text' })
  workerId: string;

  @Column({ name: 'processed_at', type: 'timestamptz' })
  processedAt: Date;
}
