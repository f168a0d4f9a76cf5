import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { FixRunRepository, PreviewRepository, ScreenshotRepository, opaqueId } from '@mailproof/persistence';

/** One row in every table an account reaches, through the repositories where they store email content (encrypted at rest). */
export async function createTestAccountRows(app: INestApplication, db: DataSource, account: { accountId: string; keyId: string }) {
  const marker = `account-data-marker-${randomBytes(6).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const domain = `erase-${randomBytes(4).toString('hex')}.example`;
  const source = `<p>${marker}</p>`;
  const preview = await app
    .get(PreviewRepository)
    .create({ accountId: account.accountId, title: 'erase me', format: 'html', clients: ['gmail-web'], source, expiresAt: null });
  const fixRun = await app
    .get(FixRunRepository)
    .create({ accountId: account.accountId, format: 'html', clients: ['gmail-web'], tiers: ['safe'], source, expiresAt: new Date(Date.now() + 3_600_000) });
  // Sealed with the account's key and named by a hash keyed with it, as the render worker stores it.
  const screenshots = app.get(ScreenshotRepository);
  const png = Buffer.from(`png ${marker}`);
  const imageHash = await screenshots.imageHash(account.accountId, png);
  await screenshots.putImages([{ hash: imageHash, png, width: 1, height: 1 }], account.accountId);
  await db.query(`INSERT INTO preview_screenshots (preview_id, shot, hash) VALUES ($1, 'gmail-web-light', $2)`, [preview.id, imageHash]);
  await db.query('INSERT INTO shares (id, preview_id, account_id) VALUES ($1, $2, $3)', [opaqueId('shr'), preview.id, account.accountId]);
  const gateRunId = opaqueId('gtr');
  await db.query(
    `INSERT INTO gate_runs (id, account_id, ref, request, preview_id, status, passed, overall_score) VALUES ($1, $2, 'welcome', $3, $4, 'completed', true, 90)`,
    [gateRunId, account.accountId, JSON.stringify({ source: 'html', url: null, format: 'html', threshold: 80, checks: [], clients: [] }), preview.id],
  );
  await db.query(`INSERT INTO gate_baselines (account_id, ref, run_id, snapshot) VALUES ($1, 'welcome', $2, '{}')`, [account.accountId, gateRunId]);
  const [{ id: domainId }]: Array<{ id: string }> = await db.query('INSERT INTO monitored_domains (account_id, domain) VALUES ($1, $2) RETURNING id', [
    account.accountId,
    domain,
  ]);
  const audit = `INSERT INTO domain_audits (job_id, monitored_domain_id, account_id, domain, trigger, score, inconclusive, result, checked_at)
                 VALUES ($1, $2, $3, $4, $5, 90, false, '{}', now()) RETURNING id`;
  const [{ id: auditId }]: Array<{ id: string }> = await db.query(audit, [
    `job-${randomBytes(6).toString('hex')}`,
    domainId,
    account.accountId,
    domain,
    'schedule',
  ]);
  await db.query(audit, [`job-${randomBytes(6).toString('hex')}`, null, account.accountId, domain, 'on-demand']);
  await db.query(
    `INSERT INTO drift_events (monitored_domain_id, audit_id, kind, check_name, message, detected_at) VALUES ($1, $2, 'changed', 'spf', 'changed', now())`,
    [domainId, auditId],
  );
  const [{ id: endpointId }]: Array<{ id: string }> = await db.query(
    `INSERT INTO webhook_endpoints (account_id, url, events, secret) VALUES ($1, 'https://hooks.example/x', '{gate.completed}', $2) RETURNING id`,
    [account.accountId, webhookSecret],
  );
  const eventId = `evt_${randomBytes(8).toString('hex')}`;
  await db.query(`INSERT INTO webhook_events (id, account_id, type, source_key, payload) VALUES ($1, $2, 'gate.completed', $1, '{}')`, [
    eventId,
    account.accountId,
  ]);
  await db.query(`INSERT INTO webhook_deliveries (endpoint_id, event_id, status) VALUES ($1, $2, 'delivered')`, [endpointId, eventId]);
  await db.query(`INSERT INTO usage_counters (key_id, day, kind, count) VALUES ($1, current_date, 'preview', 3)`, [account.keyId]);
  return { marker, webhookSecret, domain, imageHash, eventId, previewId: preview.id, fixRunId: fixRun.id, gateRunId };
}
