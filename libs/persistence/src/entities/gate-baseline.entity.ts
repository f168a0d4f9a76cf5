import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { GateSnapshot } from '@mailproof/contracts';
import { PG_SAFE_TEXT } from '../pg-safe-text';

/** The last accepted version of an email per account and ref: its gate snapshot (engine) and the run that set it. */
@Entity({ name: 'gate_baselines' })
export class GateBaselineEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @PrimaryColumn({ type: 'text', transformer: PG_SAFE_TEXT })
  ref: string;

  @Column({ name: 'run_id', type: 'text', transformer: PG_SAFE_TEXT })
  runId: string;

  @Column({ type: 'jsonb', transformer: PG_SAFE_TEXT })
  snapshot: GateSnapshot;

  /**
   * The visual check's part (docs/gate.md, "The visual check"), sealed with the account's data key (a jsonb
   * string, opened by GateRunRepository); null when the run that set the baseline did not run `visual`.
   */
  @Column({ type: 'jsonb', nullable: true })
  visual: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
