import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Customer data (retention, export, erasure): each account's retention, what a request asked to keep, when a preview's content
 * was removed, and the one record an erasure leaves behind (docs/privacy.md). IF NOT EXISTS: a development build once carried
 * this migration under an earlier timestamp, and databases migrated by it must not fail here.
 */
export class AccountData1764410000000 implements MigrationInterface {
  name = 'AccountData1764410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // 0 keeps findings and scores but never the source or the rendered markup.
    await queryRunner.query(
      `ALTER TABLE accounts ADD COLUMN IF NOT EXISTS retention_days integer NOT NULL DEFAULT 30 CHECK (retention_days BETWEEN 0 AND 365)`,
    );
    // retain = false: the request asked that its email not be kept once its job chain is done.
    await queryRunner.query(
      `ALTER TABLE previews ADD COLUMN IF NOT EXISTS retain boolean NOT NULL DEFAULT true, ADD COLUMN IF NOT EXISTS content_removed_at timestamptz`,
    );
    await queryRunner.query(`ALTER TABLE fix_runs ADD COLUMN IF NOT EXISTS retain boolean NOT NULL DEFAULT true`);
    // The retention sweep's scan: previews whose content is still stored (shrinks as content goes).
    await queryRunner.query(`CREATE INDEX IF NOT EXISTS previews_content_kept_idx ON previews (created_at) WHERE content_removed_at IS NULL`);
    await queryRunner.query(`CREATE INDEX IF NOT EXISTS webhook_events_account_created_idx ON webhook_events (account_id, created_at)`);
    // What an erasure keeps: when, who asked, and how many rows of each table went. No name, no key, no id of the account.
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS account_erasures (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        erased_at  timestamptz NOT NULL DEFAULT now(),
        requested_by text NOT NULL CHECK (requested_by IN ('api', 'dashboard', 'cli')),
        row_counts jsonb NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE account_erasures`);
    await queryRunner.query(`DROP INDEX webhook_events_account_created_idx`);
    await queryRunner.query(`DROP INDEX previews_content_kept_idx`);
    await queryRunner.query(`ALTER TABLE fix_runs DROP COLUMN retain`);
    await queryRunner.query(`ALTER TABLE previews DROP COLUMN content_removed_at, DROP COLUMN retain`);
    await queryRunner.query(`ALTER TABLE accounts DROP COLUMN retention_days`);
  }
}
