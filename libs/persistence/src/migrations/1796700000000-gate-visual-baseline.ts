import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gate's visual check (docs/gate.md, "The visual check"): a baseline keeps, beside its snapshot, the
 * divergence per client and scheme of the last passing version measured with `visual` and the reference
 * rendering's fingerprint. Derived from the email's pictures and naming its elements, it is sealed with the
 * account's data key (docs/privacy.md) like a run's verdict: a jsonb string. Null for a baseline set by a run
 * without `visual` (every baseline stored before it existed), so adding the column rewrites no row.
 */
export class GateVisualBaseline1796700000000 implements MigrationInterface {
  name = 'GateVisualBaseline1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gate_baselines ADD COLUMN IF NOT EXISTS visual jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gate_baselines DROP COLUMN IF EXISTS visual`);
  }
}
