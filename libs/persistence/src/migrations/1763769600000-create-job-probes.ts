import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobProbes1763769600000 implements MigrationInterface {
  name = 'CreateJobProbes1763769600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE job_probes (
        job_id       text PRIMARY KEY,
        queue        text NOT NULL,
        nonce        text NOT NULL,
        worker_id    text NOT NULL,
        processed_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE job_probes`);
  }
}
