import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAccounts1763769700000 implements MigrationInterface {
  name = 'CreateAccounts1763769700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounts (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name       text NOT NULL,
        plan       text NOT NULL CHECK (plan IN ('free', 'pro')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id   uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name         text NOT NULL,
        prefix       text NOT NULL,
        key_hash     bytea NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at   timestamptz
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await queryRunner.query(`CREATE INDEX api_keys_account_id_idx ON api_keys (account_id) WHERE revoked_at IS NULL`);
    await queryRunner.query(`
      CREATE TABLE usage_counters (
        key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        day    date NOT NULL,
        kind   text NOT NULL CHECK (kind IN ('preview', 'gate', 'deliverability', 'mcp', 'other')),
        count  integer NOT NULL,
        PRIMARY KEY (key_id, day, kind)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE usage_counters`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE accounts`);
  }
}
