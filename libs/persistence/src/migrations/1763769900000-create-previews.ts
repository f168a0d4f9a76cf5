import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePreviews1763769900000 implements MigrationInterface {
  name = 'CreatePreviews1763769900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE previews (
        id            text PRIMARY KEY,
        account_id    uuid REFERENCES accounts(id) ON DELETE CASCADE,
        title         text,
        format        text NOT NULL CHECK (format IN ('html', 'jsx', 'mjml', 'maizzle')),
        clients       text[] NOT NULL,
        source        text NOT NULL,
        status        text NOT NULL CHECK (status IN ('queued', 'completed', 'failed')),
        result        bytea,
        failure       jsonb,
        overall_score integer,
        screenshots   jsonb,
        created_at    timestamptz NOT NULL DEFAULT now(),
        completed_at  timestamptz,
        expires_at    timestamptz
      )`);
    // Results are stored Brotli-compressed already (libs/persistence/src/preview-result.codec.ts): no second compression.
    await queryRunner.query(`ALTER TABLE previews ALTER COLUMN result SET STORAGE EXTERNAL`);
    await queryRunner.query(`CREATE INDEX previews_account_created_idx ON previews (account_id, created_at DESC) WHERE account_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX previews_expires_at_idx ON previews (expires_at) WHERE expires_at IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE shares (
        id         text PRIMARY KEY,
        preview_id text NOT NULL REFERENCES previews(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX shares_preview_id_idx ON shares (preview_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE shares`);
    await queryRunner.query(`DROP TABLE previews`);
  }
}
