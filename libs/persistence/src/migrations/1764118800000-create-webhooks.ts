import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWebhooks1764118800000 implements MigrationInterface {
  name = 'CreateWebhooks1764118800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // An account's webhook endpoints. The secret signs deliveries, so it is stored as issued (docs/webhooks.md).
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id           uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        url                  text NOT NULL,
        events               text[] NOT NULL,
        secret               text NOT NULL,
        status               text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
        disabled_reason      text,
        disabled_at          timestamptz,
        consecutive_failures integer NOT NULL DEFAULT 0,
        created_at           timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id, created_at)`);
    // One row per thing that happened; source_key (e.g. the audit or run it came from) makes recording it idempotent.
    await queryRunner.query(`
      CREATE TABLE webhook_events (
        id         text PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        type       text NOT NULL,
        source_key text NOT NULL UNIQUE,
        payload    jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One delivery per endpoint and event, whatever retries or duplicated jobs do; its log is this row.
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id        text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
        status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'canceled')),
        attempts        integer NOT NULL DEFAULT 0,
        last_status     integer,
        last_error      text,
        last_attempt_at timestamptz,
        delivered_at    timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        UNIQUE (endpoint_id, event_id)
      )`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_endpoint_created_idx ON webhook_deliveries (endpoint_id, created_at DESC)`);
    // The relay's scan: deliveries never attempted (their producer may have died before queueing them).
    await queryRunner.query(`CREATE INDEX webhook_deliveries_unattempted_idx ON webhook_deliveries (created_at) WHERE status = 'pending' AND attempts = 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_events`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
  }
}
