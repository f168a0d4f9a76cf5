import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { PG_SAFE_TEXT } from '../pg-safe-text';

import type { Plan } from '../plans';

export { PLANS, type Plan } from '../plans';

@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  name: string;

  @Column({ type: 'text', transformer: PG_SAFE_TEXT })
  plan: Plan;

  /** How many days previews' sources and rendered markup are kept (0-365, default 30; docs/privacy.md). */
  @Column({ name: 'retention_days', type: 'integer', default: 30 })
  retentionDays: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
