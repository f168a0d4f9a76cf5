import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Encryption at rest (docs/privacy.md): one data key per account, and one per UTC day for anonymous
 * content, each stored wrapped (AES-256-GCM) by a key of MAILPROOF_DATA_KEYS named by `kek_id`. Deleting a row
 * makes every ciphertext sealed with its key unreadable, backups included. An account's key goes with the
 * account (ON DELETE CASCADE).
 */
export class CreateAccountDataKeys1764400000000 implements MigrationInterface {
  name = 'CreateAccountDataKeys1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE account_data_keys (
        id            uuid PRIMARY KEY,
        account_id    uuid REFERENCES accounts(id) ON DELETE CASCADE,
        anonymous_day date,
        kek_id        text NOT NULL,
        wrapped_key   bytea NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        rewrapped_at  timestamptz,
        CHECK ((account_id IS NULL) <> (anonymous_day IS NULL))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX account_data_keys_account_idx ON account_data_keys (account_id) WHERE account_id IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX account_data_keys_day_idx ON account_data_keys (anonymous_day) WHERE anonymous_day IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE account_data_keys`);
  }
}
