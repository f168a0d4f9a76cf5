import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { GateWebhookEventData, WebhookEventBody, WebhookEventPayload } from '@mailproof/contracts';
import { RowCipher } from '../encryption/row-cipher';
import type { SealContext } from '../encryption/envelope';
import { WebhookDeliveryEntity, WebhookEndpointEntity, WebhookEventEntity, type WebhookDeliveryStatus } from '../entities/webhook.entity';
import { pgSafe } from '../pg-safe-text';
import { randomBase62 } from '../random-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Something that happened in an account, to be sent to every enabled endpoint that wants its type: its type and data, and the stored payload is `{ type, timestamp, data }`. */
export type NewWebhookEvent = WebhookEventBody & {
  accountId: string;
  /** What it came from, e.g. `domain.drift/<auditId>`: recording the same source twice records it once. */
  sourceKey: string;
  occurredAt: Date;
};

/** Where an event's sealed payload belongs (its AAD): a gate event's data names the email's URLs (docs/privacy.md). */
export function webhookPayloadContext(event: { id: string; accountId: string }): SealContext {
  return { table: 'webhook_events', column: 'payload', rowId: event.id, accountId: event.accountId };
}

/** A gate event's data without the email's URLs (the failures' href, src and url become ''), as the verdict's (verdictWithoutUrls). */
export function gateEventDataWithoutUrls(data: GateWebhookEventData): GateWebhookEventData {
  return { ...data, failures: data.failures.map(failureWithoutUrl) };
}

/** One gate failure without the email's address it names: a links failure's href, an alt-text failure's src, an unreachable link's url. */
export function failureWithoutUrl<F extends GateWebhookEventData['failures'][number]>(failure: F): F {
  if (failure.check === 'links') return { ...failure, href: '' };
  if (failure.check === 'alt-text') return { ...failure, src: '' };
  if (failure.check === 'link-unreachable') return { ...failure, url: '' };
  return failure;
}

export type AddWebhookEndpointResult = { status: 'created'; endpoint: WebhookEndpointEntity } | { status: 'limit_reached'; limit: number };

export interface WebhookDeliveryListItem {
  id: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** What the delivering worker needs: the delivery, its endpoint and the event's payload. */
export interface WebhookDeliveryWork {
  delivery: WebhookDeliveryEntity;
  endpoint: WebhookEndpointEntity;
  event: WebhookEventEntity;
}

/** TypeORM's postgres `query()` answers an UPDATE ... RETURNING with `[rows, rowCount]`, an INSERT with the rows. */
async function updateReturning<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
  const result: unknown = await manager.query(sql, parameters);
  return (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? result[0] : result) as T[];
}

/** The event's id: `msg_` and 24 base62 characters, the `webhook-id` header (Standard Webhooks). */
function eventId(): string {
  return `msg_${randomBase62(24)}`;
}

/**
 * Webhook endpoints, events and deliveries (docs/webhooks.md). Events are recorded inside the producer's
 * own transaction (the audit or verdict that caused them), with one delivery row per wanting endpoint,
 * so an event exists exactly when what caused it was committed; the producer queues the deliveries after
 * its commit, and the scheduler's relay queues whatever a dead producer left unqueued.
 */
@Injectable()
export class WebhookRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: RowCipher,
  ) {}

  private get endpoints() {
    return this.dataSource.getRepository(WebhookEndpointEntity);
  }

  /** Adds an endpoint unless the account is at its limit; the account row is locked so two adds cannot both slip under it. */
  async addEndpoint(accountId: string, url: string, events: string[], secret: string, limit: number): Promise<AddWebhookEndpointResult> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
      const repository = manager.getRepository(WebhookEndpointEntity);
      if ((await repository.countBy({ accountId })) >= limit) return { status: 'limit_reached', limit };
      const endpoint = await repository.save(
        repository.create({ accountId, url, events, secret, status: 'enabled', disabledReason: null, disabledAt: null, consecutiveFailures: 0 }),
      );
      return { status: 'created', endpoint };
    });
  }

  listEndpoints(accountId: string): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** null for unknown ids, malformed ids and other accounts' endpoints alike. */
  async findEndpoint(accountId: string, id: string): Promise<WebhookEndpointEntity | null> {
    if (!UUID.test(id)) return null;
    return this.endpoints.findOneBy({ id, accountId });
  }

  /** Deletes the endpoint and its deliveries (queued jobs then find nothing to send); false when it is not this account's. */
  async removeEndpoint(accountId: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const result = await this.endpoints.delete({ id, accountId });
    return (result.affected ?? 0) > 0;
  }

  /** Turns a disabled endpoint back on with a clean failure count; null when it is not this account's. */
  async enableEndpoint(accountId: string, id: string): Promise<WebhookEndpointEntity | null> {
    if (!UUID.test(id)) return null;
    await this.endpoints.update({ id, accountId }, { status: 'enabled', disabledReason: null, disabledAt: null, consecutiveFailures: 0 });
    return this.endpoints.findOneBy({ id, accountId });
  }

  /** An endpoint's deliveries, newest first, with their event's type. */
  async listDeliveries(endpointId: string, limit: number): Promise<WebhookDeliveryListItem[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.last_status, d.last_error, d.last_attempt_at, d.delivered_at, d.created_at
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.endpoint_id = $1
        ORDER BY d.created_at DESC, d.id
        LIMIT $2`,
      [endpointId, limit],
    );
    return rows.map((row) => ({
      id: row.id as string,
      eventId: row.event_id as string,
      eventType: row.type as string,
      status: row.status as WebhookDeliveryStatus,
      attempts: row.attempts as number,
      lastStatus: row.last_status as number | null,
      lastError: row.last_error as string | null,
      lastAttemptAt: row.last_attempt_at as Date | null,
      deliveredAt: row.delivered_at as Date | null,
      createdAt: row.created_at as Date,
    }));
  }

  /**
   * Records an event and one pending delivery for every enabled endpoint of its account that wants its
   * type (or only the enabled endpoint `onlyEndpointId`, whatever it wants: the test event). Runs inside the caller's
   * transaction. Idempotent: a source already recorded adds nothing. Returns the new deliveries' ids,
   * for the caller to queue once it has committed.
   */
  async recordEvent(manager: EntityManager, event: NewWebhookEvent, onlyEndpointId?: string): Promise<string[]> {
    const payload = pgSafe({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data } as WebhookEventPayload);
    const id = eventId();
    const inserted: Array<{ id: string }> = await manager.query(
      `INSERT INTO webhook_events (id, account_id, type, source_key, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (source_key) DO NOTHING RETURNING id`,
      [
        id,
        event.accountId,
        event.type,
        pgSafe(event.sourceKey),
        await this.cipher.sealJson(webhookPayloadContext({ id, accountId: event.accountId }), payload),
        event.occurredAt,
      ],
    );
    if (inserted.length === 0) return [];
    const deliveries: Array<{ id: string }> =
      onlyEndpointId === undefined
        ? await manager.query(
            `INSERT INTO webhook_deliveries (endpoint_id, event_id)
             SELECT id, $2 FROM webhook_endpoints WHERE account_id = $1 AND status = 'enabled' AND $3 = ANY(events)
             ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
            [event.accountId, inserted[0].id, event.type],
          )
        : await manager.query(
            `INSERT INTO webhook_deliveries (endpoint_id, event_id)
             SELECT id, $2 FROM webhook_endpoints WHERE account_id = $1 AND id = $3 AND status = 'enabled'
             ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
            [event.accountId, inserted[0].id, onlyEndpointId],
          );
    return deliveries.map((row) => row.id);
  }

  /** Records an event in a transaction of its own (the test event). */
  recordEventNow(event: NewWebhookEvent, onlyEndpointId?: string): Promise<string[]> {
    return this.dataSource.transaction((manager) => this.recordEvent(manager, event, onlyEndpointId));
  }

  /**
   * Pending deliveries stored at least `graceMs` ago and never attempted: their producer may have died
   * between its commit and queueing them. Queueing one that is in fact queued is a no-op (its job id).
   */
  async unattemptedDeliveries(graceMs: number, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND attempts = 0 AND created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT $2`,
      [graceMs / 1000, limit],
    );
    return rows.map((row) => row.id);
  }

  async findWork(deliveryId: string): Promise<WebhookDeliveryWork | null> {
    if (!UUID.test(deliveryId)) return null;
    const delivery = await this.dataSource.getRepository(WebhookDeliveryEntity).findOneBy({ id: deliveryId });
    if (!delivery) return null;
    const [endpoint, event] = await Promise.all([
      this.endpoints.findOneBy({ id: delivery.endpointId }),
      this.dataSource.getRepository(WebhookEventEntity).findOneBy({ id: delivery.eventId }),
    ]);
    if (!endpoint || !event) return null;
    event.payload = await this.openPayload(event, event.payload);
    return { delivery, endpoint, event };
  }

  /** An event's payload as stored (sealed, or plaintext from before encryption) opened. */
  openPayload(event: { id: string; accountId: string }, stored: WebhookEventPayload | string): Promise<WebhookEventPayload> {
    return this.cipher.openJson<WebhookEventPayload>(webhookPayloadContext(event), stored);
  }

  /**
   * The gate events of these runs lose the email's URLs (their preview's content was removed: retention, retain: false).
   * A delivery still to be sent then carries the event without them. Runs inside the caller's transaction; returns how many changed.
   */
  async stripGateEventUrls(manager: EntityManager, runIds: readonly string[]): Promise<number> {
    if (runIds.length === 0) return 0;
    const sourceKeys = runIds.flatMap((runId) => [`gate.failed/${runId}`, `gate.passed/${runId}`]);
    const rows: Array<{ id: string; account_id: string; payload: WebhookEventPayload | string }> = await manager.query(
      'SELECT id, account_id, payload FROM webhook_events WHERE source_key = ANY($1) FOR UPDATE',
      [sourceKeys],
    );
    let stripped = 0;
    for (const row of rows) {
      const event = { id: row.id, accountId: row.account_id };
      const payload = await this.openPayload(event, row.payload);
      if (payload.type !== 'gate.failed' && payload.type !== 'gate.passed') continue;
      const without: WebhookEventPayload = { ...payload, data: gateEventDataWithoutUrls(payload.data) };
      await manager.query('UPDATE webhook_events SET payload = $2::jsonb WHERE id = $1', [
        row.id,
        await this.cipher.sealJson(webhookPayloadContext(event), without),
      ]);
      stripped++;
    }
    return stripped;
  }

  /** One attempt's outcome on a pending delivery (a finished one is left as it is). */
  async recordAttempt(deliveryId: string, outcome: { httpStatus: number | null; error: string | null; at: Date }): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = $2, last_error = $3, last_attempt_at = $4 WHERE id = $1 AND status = 'pending'`,
      [deliveryId, outcome.httpStatus, outcome.error === null ? null : pgSafe(outcome.error), outcome.at],
    );
  }

  /** The attempt succeeded: the delivery is done and its endpoint's failure count starts again. */
  async markDelivered(deliveryId: string, outcome: { httpStatus: number; at: Date }): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const rows = await updateReturning<{ endpoint_id: string }>(
        manager,
        `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_status = $2, last_error = NULL, last_attempt_at = $3, delivered_at = $3
          WHERE id = $1 AND status = 'pending' RETURNING endpoint_id`,
        [deliveryId, outcome.httpStatus, outcome.at],
      );
      if (rows.length > 0) await manager.query(`UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = $1`, [rows[0].endpoint_id]);
    });
  }

  /**
   * The delivery failed on every attempt: it is failed, and its endpoint is disabled, with `reason`, once
   * `disableAfter` deliveries in a row have failed. Idempotent: a delivery is counted once.
   * Returns whether this call disabled the endpoint.
   */
  async markFailed(deliveryId: string, disableAfter: number, reason: (failures: number, lastError: string | null) => string): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await updateReturning<{ endpoint_id: string; last_error: string | null }>(
        manager,
        `UPDATE webhook_deliveries SET status = 'failed' WHERE id = $1 AND status = 'pending' RETURNING endpoint_id, last_error`,
        [deliveryId],
      );
      if (rows.length === 0) return false;
      const [endpoint] = await updateReturning<{ consecutive_failures: number; status: string }>(
        manager,
        `UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING consecutive_failures, status`,
        [rows[0].endpoint_id],
      );
      if (!endpoint || endpoint.status !== 'enabled' || endpoint.consecutive_failures < disableAfter) return false;
      await manager.query(`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $2, disabled_at = now() WHERE id = $1`, [
        rows[0].endpoint_id,
        pgSafe(reason(endpoint.consecutive_failures, rows[0].last_error)),
      ]);
      return true;
    });
  }

  /** Not sent at all (its endpoint was disabled meanwhile). */
  async markCanceled(deliveryId: string, why: string): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_deliveries SET status = 'canceled', last_error = $2 WHERE id = $1 AND status = 'pending'`, [deliveryId, why]);
  }
}
