import type { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'preview', 'gate', 'deliverability', 'mcp', 'other'`;

/**
 * POST /api/fix (issue 30): `fix_runs`, one row per request, kept for the anonymous preview window and
 * deleted by the preview cleanup; and the usage kind `fix`.
 */
export class CreateFixRuns1764201600000 implements MigrationInterface {
  name = 'CreateFixRuns1764201600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE fix_runs (
        id              text PRIMARY KEY,
        account_id      uuid REFERENCES accounts(id) ON DELETE CASCADE,
        format          text NOT NULL,
        clients         text[] NOT NULL,
        tiers           text[] NOT NULL,
        source          text NOT NULL,
        files           jsonb,
        mjml_validation text,
        status          text NOT NULL CHECK (status IN ('queued', 'completed', 'failed')),
        result          bytea,
        failure         jsonb,
        created_at      timestamptz NOT NULL DEFAULT now(),
        completed_at    timestamptz,
        expires_at      timestamptz NOT NULL
      )`);
    // Stored Brotli-compressed already (preview-result.codec.ts): no second compression.
    await queryRunner.query(`ALTER TABLE fix_runs ALTER COLUMN result SET STORAGE EXTERNAL`);
    await queryRunner.query(`CREATE INDEX fix_runs_account_id_idx ON fix_runs (account_id) WHERE account_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX fix_runs_expires_at_idx ON fix_runs (expires_at)`);
    await queryRunner.query(`ALTER TABLE usage_counters DROP CONSTRAINT usage_counters_kind_check`);
    await queryRunner.query(`ALTER TABLE usage_counters ADD CONSTRAINT usage_counters_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'fix'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM usage_counters WHERE kind = 'fix'`);
    await queryRunner.query(`ALTER TABLE usage_counters DROP CONSTRAINT usage_counters_kind_check`);
    await queryRunner.query(`ALTER TABLE usage_counters ADD CONSTRAINT usage_counters_kind_check CHECK (kind IN (${KINDS_BEFORE}))`);
    await queryRunner.query(`DROP TABLE fix_runs`);
  }
}
