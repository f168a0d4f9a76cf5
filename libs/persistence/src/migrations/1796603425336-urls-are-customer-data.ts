import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * URLs of an email are customer data (docs/privacy.md): gate runs' links and verdicts are sealed from now on, so SQL can no
 * longer see whether a verdict still names URLs; urls_removed_at records that a run was stripped of them (retention,
 * retain: false). Previews whose content went before this lose the gate summary they kept (it names every link and image).
 *
 * Screenshots are the email as a picture: from now on each is sealed with its owner's data key and named by a hash keyed
 * with that key (so identical pictures are stored once per owner, and the name says nothing of the picture to whoever lacks
 * the key). account_id is the owner (null: anonymous, the day's key); `sealed` is false for the images stored before this:
 * shared by plain SHA-256 between accounts, they cannot be sealed with one account's key, so they stay as they are, marked,
 * and go with the last preview that shows them (docs/privacy.md, "Encryption at rest").
 */
export class UrlsAreCustomerData1796603425336 implements MigrationInterface {
  name = 'UrlsAreCustomerData1796603425336';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gate_runs ADD COLUMN urls_removed_at timestamptz`);
    await queryRunner.query(`UPDATE previews SET gate_summary = NULL WHERE content_removed_at IS NOT NULL AND gate_summary IS NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE screenshot_images ADD COLUMN account_id uuid REFERENCES accounts(id) ON DELETE CASCADE, ADD COLUMN sealed boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`CREATE INDEX screenshot_images_account_idx ON screenshot_images (account_id) WHERE account_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE screenshot_images DROP COLUMN account_id, DROP COLUMN sealed`);
    await queryRunner.query(`ALTER TABLE gate_runs DROP COLUMN urls_removed_at`);
  }
}
