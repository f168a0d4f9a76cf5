import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A failed verdict's suggested fix moves off the verdict's path (docs/gate.md, "Suggested fix"): the
 * follow-up job gate.suggest-fix stores it in a column of its own (the verdict is written once, by the
 * verdict step), and `suggested_fix_pending` says it is still to come. Runs stored before keep theirs in
 * the verdict and are not pending (the default, so adding the column rewrites no row).
 */
export class GateSuggestedFix1764500000000 implements MigrationInterface {
  name = 'GateSuggestedFix1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gate_runs ADD COLUMN IF NOT EXISTS suggested_fix jsonb`);
    await queryRunner.query(`ALTER TABLE gate_runs ADD COLUMN IF NOT EXISTS suggested_fix_pending boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gate_runs DROP COLUMN IF EXISTS suggested_fix_pending`);
    await queryRunner.query(`ALTER TABLE gate_runs DROP COLUMN IF EXISTS suggested_fix`);
  }
}
