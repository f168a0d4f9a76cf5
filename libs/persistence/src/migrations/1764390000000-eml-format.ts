import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `format: "eml"` (a whole message, docs/messages.md) joins the formats a preview may hold. */
export class EmlFormat1764390000000 implements MigrationInterface {
  name = 'EmlFormat1764390000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE previews DROP CONSTRAINT IF EXISTS previews_format_check`);
    await queryRunner.query(`ALTER TABLE previews ADD CONSTRAINT previews_format_check CHECK (format IN ('html', 'jsx', 'mjml', 'maizzle', 'eml'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM previews WHERE format = 'eml'`);
    await queryRunner.query(`ALTER TABLE previews DROP CONSTRAINT IF EXISTS previews_format_check`);
    await queryRunner.query(`ALTER TABLE previews ADD CONSTRAINT previews_format_check CHECK (format IN ('html', 'jsx', 'mjml', 'maizzle'))`);
  }
}
