import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { PG_SAFE_TEXT } from '../pg-safe-text';

/** An API key. Only the SHA-256 of the secret is stored; `prefix` (first 12 characters) is for display. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  name: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  prefix: string;

  @Column({ name: 'key_hash', type: 'bytea', unique: true, select: false })
  keyHash: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
