import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { StoredFailure } from '@mailproof/contracts';
import { PG_SAFE_TEXT } from '../pg-safe-text';

export type FixRunStatus = 'queued' | 'completed' | 'failed';

/**
 * One POST /api/fix (or MCP fix_email): the submitted email, what was asked, and once the worker has run
 * the answer, stored as the complete response JSON Brotli-compressed (preview-result.codec.ts), as a
 * preview's result is. Every run expires after the anonymous preview window: nothing lists fix runs,
 * they exist so that the request can be answered from the worker's work (and read again by id meanwhile).
 */
@Entity({ name: 'fix_runs' })
export class FixRunEntity {
  @PrimaryColumn({ type: 'text', transformer: PG_SAFE_TEXT })
  id: string;

  /** The account whose key asked; null for anonymous requests. */
  @Index()
  @Column({ name: 'account_id', type: 'uuid', nullable: true })
  accountId: string | null;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  format: 'html' | 'jsx' | 'mjml' | 'maizzle' | 'eml';

  @Column({ type: 'text', array: true, transformer: PG_SAFE_TEXT })
  clients: string[];

  /** The fix tiers asked for, defaults applied (['safe']). */
  @Column({ type: 'text', array: true, transformer: PG_SAFE_TEXT })
  tiers: string[];

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  source: string;

  /** The files the source imports; null when none were sent. */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  files: Record<string, string> | null;

  /** MJML validation asked for; null is MJML's default, soft. */
  @Column({ name: 'mjml_validation', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  mjmlValidation: 'soft' | 'strict' | null;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  status: FixRunStatus;

  /** The answer (FixRunResult) as Brotli-compressed JSON. */
  @Column({ type: 'bytea', nullable: true })
  result: Buffer | null;

  /** Why it failed (compile failures, engine limits, a job that failed for good). */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  failure: StoredFailure | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
