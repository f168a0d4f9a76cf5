import { Column, Entity, PrimaryColumn } from 'typeorm';

export const USAGE_KINDS = ['preview', 'gate', 'deliverability', 'mcp', 'other'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/** Requests per key, per UTC day, per kind of endpoint. */
@Entity({ name: 'usage_counters' })
export class UsageCounterEntity {
  @PrimaryColumn({ name: 'key_id', type: 'uuid' })
  keyId: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'text' })
  kind: UsageKind;

  @Column({ type: 'integer' })
  count: number;
}
