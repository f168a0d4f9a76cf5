import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { WebhookEventPayload } from '@mailproof/contracts';
import type { Plan } from '../entities/account.entity';
import { DataKeyRepository } from '../encryption/data-key.repository';
import { DataKeyringError, EncryptedContentGoneError } from '../encryption/encryption.errors';
import { parsePreviewResult } from '../preview-result.codec';
import { FixRunRepository } from '../repositories/fix-run.repository';
import { GateRunRepository } from '../repositories/gate-run.repository';
import { PreviewRepository } from '../repositories/preview.repository';
import { WebhookRepository } from '../repositories/webhook.repository';
import { ScreenshotRepository } from '../repositories/screenshot.repository';
import { ACCOUNT_TABLES } from './account-tables';

export interface AccountSettings {
  id: string;
  name: string;
  plan: Plan;
  retentionDays: number;
  createdAt: Date;
}

/** Who asked for an erasure (kept in the audit record). */
export type ErasureRequester = 'api' | 'dashboard' | 'cli';

/** What an erasure removed: the audit record's id, rows per table, and the ids whose Redis keys and jobs must go too. */
export interface AccountErasure {
  erasureId: string;
  rowCounts: Record<string, number>;
  screenshotImages: number;
  keyIds: string[];
  previewIds: string[];
  gateRunIds: string[];
  fixRunIds: string[];
  deliveryIds: string[];
  monitoredDomainIds: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE = 100;

/** Rows of a query in pages by id, so an export never holds a whole table. */
async function* pagedRows<T extends { id: string }>(dataSource: DataSource, select: string, accountId: string): AsyncGenerator<T> {
  let after = '';
  for (;;) {
    const rows: T[] = await dataSource.query(`SELECT * FROM (${select}) page WHERE page.id::text > $2 ORDER BY page.id::text LIMIT ${PAGE}`, [
      accountId,
      after,
    ]);
    yield* rows;
    if (rows.length < PAGE) return;
    after = String(rows[rows.length - 1].id);
  }
}

/** JSON with PNG bytes and other buffers as base64. */
function json(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && (item as { type?: string }).type === 'Buffer' && Array.isArray((item as { data?: unknown }).data)
      ? Buffer.from((item as { data: number[] }).data).toString('base64')
      : item,
  );
}

/**
 * What an export says of a row it cannot decrypt, instead of aborting a response already under way (its 200 is sent):
 * the key was destroyed (the content is gone for good), or the key ring lacks the key that wrapped it (an operator can
 * restore it and export again). Any other error still stops the export.
 */
function unreadableContent(error: unknown): { reason: 'content_gone' | 'data_key_unavailable'; detail: string } {
  if (error instanceof EncryptedContentGoneError) return { reason: 'content_gone', detail: 'Its encryption key was destroyed: the content is gone.' };
  if (error instanceof DataKeyringError) {
    return {
      reason: 'data_key_unavailable',
      detail: `The server's key ring lacks key "${error.kekId ?? 'unknown'}", which sealed it; export again once it is restored.`,
    };
  }
  throw error;
}

/** The sections of an export read by one SELECT each: no encrypted column among them but webhook events' payload, screenshots' PNG and baselines' visual part (opened per row). */
const PLAIN_SECTIONS: ReadonlyArray<{ name: string; select: string }> = [
  {
    name: 'apiKeys',
    select: `SELECT id, name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt" FROM api_keys WHERE account_id = $1`,
  },
  {
    name: 'usage',
    select: `SELECT key_id || '-' || to_char(day, 'YYYY-MM-DD') || '-' || kind AS id, key_id AS "keyId", to_char(day, 'YYYY-MM-DD') AS day, kind, count
             FROM usage_counters WHERE key_id IN (SELECT id FROM api_keys WHERE account_id = $1)`,
  },
  { name: 'shares', select: `SELECT id, preview_id AS "previewId", created_at AS "createdAt", expires_at AS "expiresAt" FROM shares WHERE account_id = $1` },
  // The PNG is sealed (the email as a picture): opened in exportChunks.
  {
    name: 'screenshots',
    select: `SELECT s.preview_id || '-' || s.shot AS id, s.preview_id AS "previewId", s.shot, s.hash, s.truncated, s.created_at AS "createdAt"
             FROM preview_screenshots s WHERE s.preview_id IN (SELECT id FROM previews WHERE account_id = $1)`,
  },
  // The visual part is sealed (derived from the email's pictures, naming its elements): opened in exportChunks.
  {
    name: 'gateBaselines',
    select: `SELECT ref AS id, account_id AS "accountId", run_id AS "runId", snapshot, visual, created_at AS "createdAt" FROM gate_baselines WHERE account_id = $1`,
  },
  {
    name: 'domains',
    select: `SELECT id, domain, dkim_selectors AS "dkimSelectors", status, status_reason AS "statusReason", score, last_checked_at AS "lastCheckedAt",
             last_result AS "lastResult", last_drift AS "lastDrift", created_at AS "createdAt" FROM monitored_domains WHERE account_id = $1`,
  },
  {
    name: 'domainAudits',
    select: `SELECT id, monitored_domain_id AS "monitoredDomainId", domain, trigger, window_key AS "windowKey", score, inconclusive, result, checked_at AS "checkedAt"
             FROM domain_audits WHERE account_id = $1 OR monitored_domain_id IN (SELECT id FROM monitored_domains WHERE account_id = $1)`,
  },
  {
    name: 'driftEvents',
    select: `SELECT id, monitored_domain_id AS "monitoredDomainId", audit_id AS "auditId", previous_audit_id AS "previousAuditId", kind,
             check_name AS "checkName", previous, current, message, detected_at AS "detectedAt"
             FROM drift_events WHERE monitored_domain_id IN (SELECT id FROM monitored_domains WHERE account_id = $1)`,
  },
  {
    // The signing secret stays out: an export is a copy of what was stored, not a way to sign as Mailproof.
    name: 'webhooks',
    select: `SELECT id, url, events, status, disabled_reason AS "disabledReason", disabled_at AS "disabledAt", consecutive_failures AS "consecutiveFailures",
             created_at AS "createdAt" FROM webhook_endpoints WHERE account_id = $1`,
  },
  // The payload is sealed (a gate event names the email's URLs): opened in exportChunks.
  { name: 'webhookEvents', select: `SELECT id, account_id AS "accountId", type, payload, created_at AS "createdAt" FROM webhook_events WHERE account_id = $1` },
  {
    name: 'webhookDeliveries',
    select: `SELECT id, endpoint_id AS "endpointId", event_id AS "eventId", status, attempts, last_status AS "lastStatus", last_error AS "lastError",
             last_attempt_at AS "lastAttemptAt", delivered_at AS "deliveredAt", created_at AS "createdAt"
             FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE account_id = $1)`,
  },
];

/**
 * An account's data as a whole (docs/privacy.md): its settings, the export (streamed as JSON chunks) and
 * the erasure. Emails, results and rendered markup are read through their repositories, which return them
 * as the API does (decrypted); every other section is read here.
 */
@Injectable()
export class AccountDataRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly previews: PreviewRepository,
    private readonly fixRuns: FixRunRepository,
    private readonly gateRuns: GateRunRepository,
    private readonly dataKeys: DataKeyRepository,
    private readonly webhooks: WebhookRepository,
    private readonly screenshots: ScreenshotRepository,
  ) {}

  async findSettings(accountId: string): Promise<AccountSettings | null> {
    if (!UUID.test(accountId)) return null;
    const rows: AccountSettings[] = await this.dataSource.query(
      `SELECT id, name, plan, retention_days AS "retentionDays", created_at AS "createdAt" FROM accounts WHERE id = $1`,
      [accountId],
    );
    return rows[0] ?? null;
  }

  async setRetentionDays(accountId: string, days: number): Promise<AccountSettings | null> {
    await this.dataSource.query('UPDATE accounts SET retention_days = $2 WHERE id = $1', [accountId, days]);
    return this.findSettings(accountId);
  }

  /** The export as JSON text in chunks (one row at a time), for an HTTP response or a file. */
  async *exportChunks(accountId: string, now = new Date()): AsyncGenerator<string> {
    const account = await this.findSettings(accountId);
    if (!account) return;
    yield `{"exportedAt":${json(now.toISOString())},"account":${json(account)}`;
    for (const section of PLAIN_SECTIONS) {
      const rows = pagedRows<{ id: string } & Record<string, unknown>>(this.dataSource, section.select, accountId);
      yield* this.section(
        section.name,
        section.name === 'webhookEvents'
          ? this.webhookEventRows(rows)
          : section.name === 'screenshots'
            ? this.screenshotRows(rows)
            : section.name === 'gateBaselines'
              ? this.gateBaselineRows(rows)
              : rows,
      );
    }
    yield* this.section('previews', this.previewRows(accountId));
    yield* this.section('gateRuns', this.gateRunRows(accountId));
    yield* this.section('fixRuns', this.fixRunRows(accountId));
    yield '}\n';
  }

  private async *section(name: string, rows: AsyncIterable<unknown>): AsyncGenerator<string> {
    yield `,${json(name)}:[`;
    let first = true;
    for await (const row of rows) {
      yield (first ? '' : ',') + json(row);
      first = false;
    }
    yield ']';
  }

  private async *ids(table: 'previews' | 'gate_runs' | 'fix_runs', accountId: string): AsyncGenerator<string> {
    for await (const row of pagedRows<{ id: string }>(this.dataSource, `SELECT id FROM ${table} WHERE account_id = $1`, accountId)) yield row.id;
  }

  private async *previewRows(accountId: string): AsyncGenerator<object> {
    for await (const id of this.ids('previews', accountId)) {
      const [meta]: Array<{ retain: boolean; contentRemovedAt: Date | null }> = await this.dataSource.query(
        'SELECT retain, content_removed_at AS "contentRemovedAt" FROM previews WHERE id = $1',
        [id],
      );
      if (!meta) continue;
      try {
        // find() opens the stored result: read once, never again through findForRender().
        const preview = await this.previews.find(id);
        if (!preview) continue;
        const { result: stored, ...fields } = preview;
        // A preview past its retention has no content left to read (docs/privacy.md).
        const input = meta.contentRemovedAt ? null : await this.previews.findForAnalysis(id);
        yield {
          ...fields,
          ...meta,
          source: input?.source ?? null,
          files: input?.files ?? null,
          mjmlValidation: input?.mjmlValidation ?? null,
          result: stored && !meta.contentRemovedAt ? parsePreviewResult(stored) : null,
        };
      } catch (error) {
        yield { id, ...meta, contentUnreadable: unreadableContent(error) };
      }
    }
  }

  private async *gateRunRows(accountId: string): AsyncGenerator<object> {
    for await (const id of this.ids('gate_runs', accountId)) {
      try {
        const run = await this.gateRuns.find(id);
        if (run) yield run;
      } catch (error) {
        yield { id, contentUnreadable: unreadableContent(error) };
      }
    }
  }

  /** Each screenshot with its PNG, opened (the JSON encoder writes a Buffer as base64, as before sealing). */
  private async *screenshotRows(rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<object> {
    for await (const row of rows) yield { ...row, png: await this.screenshots.getImage(row.hash as string) };
  }

  /** Each baseline with its visual part opened. */
  private async *gateBaselineRows(rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<object> {
    for await (const { accountId, ...row } of rows) {
      try {
        yield { ...row, visual: await this.gateRuns.openVisualBaseline(accountId as string, row.id as string, row.visual) };
      } catch (error) {
        yield { id: row.id, contentUnreadable: unreadableContent(error) };
      }
    }
  }

  private async *webhookEventRows(rows: AsyncIterable<Record<string, unknown>>): AsyncGenerator<object> {
    for await (const { accountId, ...row } of rows) {
      const event = { id: row.id as string, accountId: accountId as string };
      try {
        yield { ...row, payload: await this.webhooks.openPayload(event, row.payload as WebhookEventPayload | string) };
      } catch (error) {
        yield { id: event.id, contentUnreadable: unreadableContent(error) };
      }
    }
  }

  private async *fixRunRows(accountId: string): AsyncGenerator<object> {
    for await (const id of this.ids('fix_runs', accountId)) {
      try {
        const [run, input] = await Promise.all([this.fixRuns.find(id), this.fixRuns.findForRun(id)]);
        if (!run || !input) continue;
        yield { ...run, source: input.source, files: input.files, result: run.result ? parsePreviewResult(run.result) : null };
      } catch (error) {
        yield { id, contentUnreadable: unreadableContent(error) };
      }
    }
  }

  /**
   * Erases every row of the account in one transaction (ACCOUNT_TABLES, children first), then the
   * screenshots no other preview shows, and records the erasure: when, who asked, rows per table.
   */
  async erase(accountId: string, requestedBy: ErasureRequester): Promise<AccountErasure | null> {
    if (!UUID.test(accountId)) return null;
    const erasure = await this.dataSource.transaction(async (manager) => {
      const locked: unknown[] = await manager.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      if (locked.length === 0) return null;
      const ids = await this.idsToForget(manager, accountId);
      const hashes: Array<{ hash: string }> = await manager.query(
        'SELECT DISTINCT hash FROM preview_screenshots WHERE preview_id IN (SELECT id FROM previews WHERE account_id = $1)',
        [accountId],
      );
      const rowCounts: Record<string, number> = {};
      for (const { table, where } of ACCOUNT_TABLES) {
        if (table === 'account_data_keys') {
          // Crypto-shredding through its repository, which also drops the key from this process's cache.
          rowCounts[table] = (await this.dataKeys.destroyForAccount(accountId, manager)) ? 1 : 0;
          continue;
        }
        const [, count]: [unknown, number] = await manager.query(`DELETE FROM ${table} WHERE ${where}`, [accountId]);
        rowCounts[table] = count;
      }
      // Images stored before screenshots were sealed are shared by plain hash: those no other preview shows go too.
      const [, legacyImages]: [unknown, number] = await manager.query(
        `DELETE FROM screenshot_images i WHERE i.hash = ANY($1) AND NOT EXISTS (SELECT 1 FROM preview_screenshots s WHERE s.hash = i.hash)`,
        [hashes.map((row) => row.hash)],
      );
      rowCounts.screenshot_images += legacyImages;
      const screenshotImages = rowCounts.screenshot_images;
      const [{ id }]: Array<{ id: string }> = await manager.query('INSERT INTO account_erasures (requested_by, row_counts) VALUES ($1, $2) RETURNING id', [
        requestedBy,
        JSON.stringify(rowCounts),
      ]);
      return { erasureId: id, rowCounts, screenshotImages, ...ids };
    });
    // Once more after the commit: a request of the account may have cached its key again between the DELETE and the commit.
    if (erasure) this.dataKeys.forgetAccount(accountId);
    return erasure;
  }

  private async idsToForget(manager: EntityManager, accountId: string): Promise<Omit<AccountErasure, 'erasureId' | 'rowCounts' | 'screenshotImages'>> {
    const column = async (sql: string) => ((await manager.query(sql, [accountId])) as Array<{ id: string }>).map((row) => row.id);
    return {
      keyIds: await column('SELECT id FROM api_keys WHERE account_id = $1'),
      previewIds: await column('SELECT id FROM previews WHERE account_id = $1'),
      gateRunIds: await column('SELECT id FROM gate_runs WHERE account_id = $1'),
      fixRunIds: await column('SELECT id FROM fix_runs WHERE account_id = $1'),
      deliveryIds: await column('SELECT id::text AS id FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE account_id = $1)'),
      monitoredDomainIds: await column('SELECT id::text AS id FROM monitored_domains WHERE account_id = $1'),
    };
  }
}
