import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateGate1764028800000 implements MigrationInterface {
  name = 'CreateGate1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Every gate run, from the request to its verdict: the API inserts it, the job chain completes it.
    await queryRunner.query(`
      CREATE TABLE gate_runs (
        id            text PRIMARY KEY,
        account_id    uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        ref           text,
        request       jsonb NOT NULL,
        preview_id    text REFERENCES previews(id) ON DELETE SET NULL,
        status        text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
        passed        boolean,
        overall_score integer,
        links         jsonb,
        verdict       jsonb,
        failure       jsonb,
        created_at    timestamptz NOT NULL DEFAULT now(),
        completed_at  timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX gate_runs_account_ref_created_idx ON gate_runs (account_id, ref, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX gate_runs_account_created_idx ON gate_runs (account_id, created_at DESC)`);
    // The last accepted version per account and ref: what the regression check compares against.
    await queryRunner.query(`
      CREATE TABLE gate_baselines (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        ref        text NOT NULL,
        run_id     text NOT NULL,
        snapshot   jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, ref)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE gate_baselines`);
    await queryRunner.query(`DROP TABLE gate_runs`);
  }
}
