import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the dashboard's lists (docs/dashboard.md): previews sorted by score, previews found
 * by a part of their title (pg_trgm serves ILIKE '%...%'), and gate runs by score history of a ref
 * (served by gate_runs_account_ref_created_idx already).
 */
export class AddDashboardIndexes1764115260000 implements MigrationInterface {
  name = 'AddDashboardIndexes1764115260000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // pg_trgm is a trusted extension: the database owner may create it without superuser rights.
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE INDEX previews_account_score_idx ON previews (account_id, overall_score DESC NULLS LAST, created_at DESC, id) WHERE account_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX previews_title_trgm_idx ON previews USING gin (title gin_trgm_ops) WHERE account_id IS NOT NULL AND title IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX previews_title_trgm_idx`);
    await queryRunner.query(`DROP INDEX previews_account_score_idx`);
  }
}
