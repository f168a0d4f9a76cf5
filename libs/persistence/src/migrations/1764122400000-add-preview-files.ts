import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the worker needs beside the source to compile it as its author does: the files it imports
 * (`files` of POST /api/preview and /api/gate) and the MJML validation level asked for (null: soft).
 */
export class AddPreviewFiles1764122400000 implements MigrationInterface {
  name = 'AddPreviewFiles1764122400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE previews ADD COLUMN files jsonb, ADD COLUMN mjml_validation text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE previews DROP COLUMN files, DROP COLUMN mjml_validation`);
  }
}
