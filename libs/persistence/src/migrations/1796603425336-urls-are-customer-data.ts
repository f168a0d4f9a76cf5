import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * URLs of an email are customer data (docs/privacy.md): gate runs' links and verdicts are sealed from now on, so SQL can no
 * longer see whether a verdict still names URLs; urls_removed_at records that a run was stripped of them (retention,
 * retain: false). Previews whose content went before this lose the gate summary they kept (it names every link and image).
 */
export class UrlsAreCustomerData1796603425336 implements MigrationInterface {
  name = 'UrlsAreCustomerData1796603425336';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gate_runs ADD COLUMN urls_removed_at timestamptz`);
    await queryRunner.query(`UPDATE previews SET gate_summary = NULL WHERE content_removed_at IS NOT NULL AND gate_summary IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gate_runs DROP COLUMN urls_removed_at`);
  }
}
