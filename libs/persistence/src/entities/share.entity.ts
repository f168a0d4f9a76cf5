import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { PG_SAFE_TEXT } from '../pg-safe-text';

/** A public link to a preview. Free accounts' shares expire after 7 days; Pro shares never do. */
@Entity({ name: 'shares' })
export class ShareEntity {
  @PrimaryColumn({ type: 'text', transformer: PG_SAFE_TEXT })
  id: string;

  @Index()
  @Column({ name: 'preview_id', type: 'text', transformer: PG_SAFE_TEXT })
  previewId: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;
}
