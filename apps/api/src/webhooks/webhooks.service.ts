import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { MailproofConfig } from '@mailproof/config';
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from '@mailproof/contracts';
import { SsrfGuard, SsrfRefusedError } from '@mailproof/net-guard';
import { WebhookRepository } from '@mailproof/persistence';
import { WebhookQueue } from '@mailproof/webhooks';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { ProblemException } from '../problems/problem.exception';
import {
  CreatedWebhookResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  type WebhookDeliveryListResponse,
  type WebhookListResponse,
  type WebhookTestResponse,
} from './dto/webhook.response';

const DEFAULT_DELIVERIES_LIMIT = 50;

/**
 * Webhook endpoints of an account and their delivery log (docs/webhooks.md). The HTTP API and the
 * dashboard both call this service.
 */
@Injectable()
export class WebhooksService {
  /** Only `check()` is used here (no request is sent): the same rules deliveries go through. */
  private readonly guard: SsrfGuard;

  constructor(
    private readonly config: MailproofConfig,
    private readonly webhooks: WebhookRepository,
    private readonly queue: WebhookQueue,
  ) {
    this.guard = new SsrfGuard({ allowedAddresses: config.netGuard.allowedAddresses });
  }

  async create(account: AuthenticatedAccount, url: string, events: WebhookEventType[]): Promise<CreatedWebhookResponse> {
    const checked = this.checkUrl(url);
    // Standard Webhooks secrets: `whsec_` + base64 of 24 to 64 random bytes.
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const limit = this.config.webhooks.endpointLimit;
    const outcome = await this.webhooks.addEndpoint(account.accountId, checked, [...events], secret, limit);
    if (outcome.status === 'limit_reached') {
      throw new ProblemException('forbidden', `Accounts may hold up to ${limit} webhook endpoints; delete one first.`, { limit });
    }
    return { ...WebhookEndpointResponse.from(outcome.endpoint), secret };
  }

  async list(account: AuthenticatedAccount): Promise<WebhookListResponse> {
    const endpoints = await this.webhooks.listEndpoints(account.accountId);
    return { webhooks: endpoints.map(WebhookEndpointResponse.from), limit: this.config.webhooks.endpointLimit };
  }

  async get(account: AuthenticatedAccount, id: string): Promise<WebhookEndpointResponse> {
    return WebhookEndpointResponse.from(await this.endpointOrNotFound(account, id));
  }

  async remove(account: AuthenticatedAccount, id: string): Promise<void> {
    if (!(await this.webhooks.removeEndpoint(account.accountId, id))) throw notFound();
  }

  /** Turns a disabled endpoint back on (its failure count starts again). */
  async enable(account: AuthenticatedAccount, id: string): Promise<WebhookEndpointResponse> {
    const endpoint = await this.webhooks.enableEndpoint(account.accountId, id);
    if (!endpoint) throw notFound();
    return WebhookEndpointResponse.from(endpoint);
  }

  async deliveries(account: AuthenticatedAccount, id: string, limit = DEFAULT_DELIVERIES_LIMIT): Promise<WebhookDeliveryListResponse> {
    const endpoint = await this.endpointOrNotFound(account, id);
    return { deliveries: (await this.webhooks.listDeliveries(endpoint.id, limit)).map(WebhookDeliveryResponse.from) };
  }

  /** Records a `webhook.test` event for this endpoint alone and queues its delivery like any other. */
  async sendTest(account: AuthenticatedAccount, id: string): Promise<WebhookTestResponse> {
    const endpoint = await this.endpointOrNotFound(account, id);
    if (endpoint.status !== 'enabled') throw new ProblemException('conflict', 'This endpoint is disabled; enable it before sending a test event.');
    const [deliveryId] = await this.webhooks.recordEventNow(
      {
        accountId: account.accountId,
        type: WEBHOOK_TEST_EVENT,
        sourceKey: `${WEBHOOK_TEST_EVENT}/${randomUUID()}`,
        occurredAt: new Date(),
        data: { endpointId: endpoint.id, message: 'A test event sent from Mailproof on request.' },
      },
      endpoint.id,
    );
    // Deleted or disabled between the two statements above: nothing was recorded for it.
    if (!deliveryId) throw notFound();
    await this.queue.queueDeliveries([deliveryId]);
    return { deliveryId };
  }

  private async endpointOrNotFound(account: AuthenticatedAccount, id: string) {
    const endpoint = await this.webhooks.findEndpoint(account.accountId, id);
    if (!endpoint) throw notFound();
    return endpoint;
  }

  /** The URL as it will be requested, or 400: not http(s), credentials, a port other than 80/443, a private or local address. */
  private checkUrl(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ProblemException('validation_failed', 'The url is not a valid absolute URL.', {
        errors: [{ field: 'url', message: 'must be an absolute http or https URL' }],
      });
    }
    try {
      return this.guard.check(parsed).href;
    } catch (error) {
      if (!(error instanceof SsrfRefusedError)) throw error;
      throw new ProblemException('url_declined', `Webhooks are not sent to this URL: ${error.detail}.`, {
        errors: [{ field: 'url', message: error.detail }],
      });
    }
  }
}

function notFound(): ProblemException {
  return new ProblemException('not_found', 'No webhook endpoint with this id in your account.');
}
