import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Monitored domains, their audits and drift events (also on-demand audits, unlinked). */
export class CreateDeliverability1763769800000 implements MigrationInterface {
  name = 'CreateDeliverability1763769800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE monitored_domains (
        id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id      uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        domain          text NOT NULL,
        dkim_selectors  text[] NOT NULL DEFAULT '{}',
        status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'healthy', 'degraded', 'failing')),
        score           integer,
        last_checked_at timestamptz,
        last_result     jsonb,
        last_drift      jsonb,
        created_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT monitored_domains_account_domain_key UNIQUE (account_id, domain)
      )`);
    await queryRunner.query(`
      CREATE TABLE domain_audits (
        id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        job_id              text NOT NULL UNIQUE,
        monitored_domain_id uuid REFERENCES monitored_domains(id) ON DELETE CASCADE,
        account_id          uuid REFERENCES accounts(id) ON DELETE SET NULL,
        domain              text NOT NULL,
        trigger             text NOT NULL CHECK (trigger IN ('on-demand', 'domain-added', 'schedule')),
        window_key          text,
        score               integer NOT NULL,
        inconclusive        boolean NOT NULL,
        result              jsonb NOT NULL,
        checked_at          timestamptz NOT NULL,
        CONSTRAINT domain_audits_domain_window_key UNIQUE (monitored_domain_id, window_key)
      )`);
    await queryRunner.query(`CREATE INDEX domain_audits_history_idx ON domain_audits (monitored_domain_id, checked_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE drift_events (
        id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        monitored_domain_id uuid NOT NULL REFERENCES monitored_domains(id) ON DELETE CASCADE,
        audit_id            uuid NOT NULL REFERENCES domain_audits(id) ON DELETE CASCADE,
        previous_audit_id   uuid REFERENCES domain_audits(id) ON DELETE SET NULL,
        kind                text NOT NULL,
        check_name          text NOT NULL,
        previous            jsonb,
        current             jsonb,
        message             text NOT NULL,
        detected_at         timestamptz NOT NULL,
        CONSTRAINT drift_events_audit_kind_key UNIQUE (audit_id, kind, check_name)
      )`);
    await queryRunner.query(`CREATE INDEX drift_events_history_idx ON drift_events (monitored_domain_id, detected_at DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE drift_events`);
    await queryRunner.query(`DROP TABLE domain_audits`);
    await queryRunner.query(`DROP TABLE monitored_domains`);
  }
}
