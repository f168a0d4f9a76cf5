import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { GateRunOptions, GateSuggestedFix, StoredFailure, StoredGateVerdict, StoredLinkResolution } from '@mailproof/contracts';
import { PG_SAFE_TEXT } from '../pg-safe-text';

export type GateRunStatus = 'running' | 'completed' | 'failed';

/** One gate run: the request's options, the analyzed email (a saved preview) and, once done, the verdict. */
@Entity({ name: 'gate_runs' })
export class GateRunEntity {
  @PrimaryColumn({ type: 'text', transformer: PG_SAFE_TEXT })
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  ref: string | null;

  /** The request's options as validated; the email itself is the preview's. */
  @Column({ type: 'jsonb', transformer: PG_SAFE_TEXT })
  request: GateRunOptions;

  @Column({ name: 'preview_id', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  previewId: string | null;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  status: GateRunStatus;

  @Column({ type: 'boolean', nullable: true })
  passed: boolean | null;

  @Column({ name: 'overall_score', type: 'integer', nullable: true })
  overallScore: number | null;

  /** What link resolution found (links.resolve), kept for the verdict step. Sealed (the email's URLs): GateRunRepository opens it. */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  links: StoredLinkResolution | null;

  /** The verdict as the API answers it. Sealed (its failures name the email's URLs): GateRunRepository opens it. */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  verdict: StoredGateVerdict | null;

  /** Why the run ended without a verdict (url_declined, compile_failed, ...). */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  failure: StoredFailure | null;

  /** When the retention or retain: false stripped the email's URLs from links and verdict (null: not yet). */
  @Column({ name: 'urls_removed_at', type: 'timestamptz', nullable: true })
  urlsRemovedAt: Date | null;

  /** A failed verdict's suggested fix, stored by the follow-up job gate.suggest-fix (null: none, or not settled yet). */
  @Column({ name: 'suggested_fix', type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  suggestedFix: GateSuggestedFix | null;

  /** From a failed verdict until gate.suggest-fix settles its suggested fix (and records the gate.failed event). */
  @Column({ name: 'suggested_fix_pending', type: 'boolean', default: false })
  suggestedFixPending: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
