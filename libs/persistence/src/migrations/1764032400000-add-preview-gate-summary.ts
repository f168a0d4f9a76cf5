import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The gate's summary of each analysis (engine gateSummary, JSON text): what a verdict reads instead of the whole result. */
export class AddPreviewGateSummary1764032400000 implements MigrationInterface {
  name = 'AddPreviewGateSummary1764032400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE previews ADD COLUMN gate_summary text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE previews DROP COLUMN gate_summary`);
  }
}
