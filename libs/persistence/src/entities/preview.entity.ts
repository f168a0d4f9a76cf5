import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { StoredFailure, StoredRenderedReports } from '@mailproof/contracts';
import { PG_SAFE_TEXT } from '../pg-safe-text';

export type PreviewStatus = 'queued' | 'completed' | 'failed';

/**
 * One submitted email and, once the worker has run, its analysis. The result is the complete
 * response JSON, Brotli-compressed (libs/persistence/src/preview-result.codec.ts): the API sends it without parsing
 * or re-serializing hundreds of kilobytes.
 */
@Entity({ name: 'previews' })
export class PreviewEntity {
  @PrimaryColumn({ type: 'text', transformer: PG_SAFE_TEXT })
  id: string;

  @Index()
  @Column({ name: 'account_id', type: 'uuid', nullable: true })
  accountId: string | null;

  @Column({ type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  title: string | null;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  format: 'html' | 'jsx' | 'mjml' | 'maizzle' | 'eml';

  @Column({ type: 'text', array: true, transformer: PG_SAFE_TEXT })
  clients: string[];

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  source: string;

  /** The files the source imports, `{ "<path relative to the email>": "<source>" }`; null when none were sent. */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  files: Record<string, string> | null;

  /** MJML validation asked for; null is MJML's default, soft. */
  @Column({ name: 'mjml_validation', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  mjmlValidation: 'soft' | 'strict' | null;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  status: PreviewStatus;

  @Column({ type: 'bytea', nullable: true })
  result: Buffer | null;

  /** Why it failed (compile failures, engine limits). */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  failure: StoredFailure | null;

  /** The gate's summary of the result (engine gateSummary, JSON text): a verdict reads it instead of the result. */
  @Column({ name: 'gate_summary', type: 'text', nullable: true, transformer: PG_SAFE_TEXT })
  gateSummary: string | null;

  @Column({ name: 'overall_score', type: 'integer', nullable: true })
  overallScore: number | null;

  /** Screenshots by "<clientId>-light|dark", added when rendering finishes. */
  @Column({ type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  screenshots: Record<string, string> | null;

  /** overflowReport, visualReport and mobileContrast, measured by worker-render; merged into the result when read. */
  @Column({ name: 'rendered_reports', type: 'jsonb', nullable: true, transformer: PG_SAFE_TEXT })
  renderedReports: StoredRenderedReports | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  /** Anonymous previews expire (24 h); account previews are kept until deleted (null). */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;
}
