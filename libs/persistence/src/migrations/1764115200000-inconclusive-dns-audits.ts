import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An audit in which no DNS lookup answered has no score (null, not 0: a 0 reads as a failing
 * domain), and a monitored domain says why its status did not move (docs/deliverability.md).
 */
export class InconclusiveDnsAudits1764115200000 implements MigrationInterface {
  name = 'InconclusiveDnsAudits1764115200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE domain_audits ALTER COLUMN score DROP NOT NULL`);
    await queryRunner.query(`UPDATE domain_audits SET score = NULL, result = jsonb_set(result, '{score}', 'null') WHERE inconclusive`);
    await queryRunner.query(`ALTER TABLE monitored_domains ADD COLUMN status_reason text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE monitored_domains DROP COLUMN status_reason`);
    await queryRunner.query(`UPDATE domain_audits SET score = 0, result = jsonb_set(result, '{score}', '0') WHERE score IS NULL`);
    await queryRunner.query(`ALTER TABLE domain_audits ALTER COLUMN score SET NOT NULL`);
  }
}
