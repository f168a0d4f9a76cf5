import { Column, Entity, PrimaryColumn } from 'typeorm';
import { PG_SAFE_TEXT } from '../pg-safe-text';

export const USAGE_KINDS = ['preview', 'gate', 'deliverability', 'mcp', 'fix', 'other'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/** Requests per key, per UTC day, per kind of endpoint. */
@Entity({ name: 'usage_counters' })
export class UsageCounterEntity {
  @PrimaryColumn({ name: 'key_id', type: 'uuid' })
  keyId: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'text', transformer: PG_SAFE_TEXT })
  kind: UsageKind;

  @Column({ type: 'integer' })
  count: number;
}
