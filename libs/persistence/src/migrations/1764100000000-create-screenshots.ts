import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Screenshots: PNGs stored once by content (SHA-256), referenced by the previews that show them. A
 * preview's rows go with it (cascade); an image nobody references any more is deleted by the code that
 * deleted the last reference (the preview delete and the expiry sweep). Reports measured in the
 * rendered pages sit beside the stored result, merged into it when it is read.
 */
export class CreateScreenshots1764100000000 implements MigrationInterface {
  name = 'CreateScreenshots1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE screenshot_images (
      hash text PRIMARY KEY,
      png bytea NOT NULL,
      bytes integer NOT NULL,
      width integer NOT NULL,
      height integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE TABLE preview_screenshots (
      preview_id text NOT NULL REFERENCES previews(id) ON DELETE CASCADE,
      shot text NOT NULL,
      hash text NOT NULL REFERENCES screenshot_images(hash),
      truncated boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (preview_id, shot)
    )`);
    await queryRunner.query(`CREATE INDEX preview_screenshots_hash ON preview_screenshots (hash)`);
    await queryRunner.query(`ALTER TABLE previews ADD COLUMN rendered_reports jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE previews DROP COLUMN rendered_reports`);
    await queryRunner.query(`DROP TABLE preview_screenshots`);
    await queryRunner.query(`DROP TABLE screenshot_images`);
  }
}
