import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated } from '../auth/auth.decorators';
import { CreateWebhookRequest } from '../webhooks/dto/create-webhook.request';
import type { CreatedWebhookResponse } from '../webhooks/dto/webhook.response';
import { WebhooksService } from '../webhooks/webhooks.service';
import { accountOf, asList, formErrors, pageContext, problemMessage, sendNotFound, sendPage, text, validateForm } from './dashboard-http';
import { DEFAULT_WEBHOOK_EVENTS, webhookPage, webhooksPage, type WebhookForm } from './views/webhooks.view';

const NOT_FOUND = 'No webhook endpoint with this id in your account.';

/** Webhook endpoints: list, add (secret shown once), test, enable, delete, deliveries; all through WebhooksService like /api/webhooks. */
@ApiExcludeController()
@Authenticated()
@Controller('app/webhooks')
export class WebhookPagesController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.sendList(req, res, 200, { url: '', events: DEFAULT_WEBHOOK_EVENTS });
  }

  /** Answers with the page itself (201), not a redirect: the secret must never travel in a URL. */
  @Post()
  async create(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const form: WebhookForm = { url: text(body.url, 2_100) ?? '', events: asList(body.events) };
    const checked = await validateForm(CreateWebhookRequest, { url: form.url.trim(), events: form.events });
    if ('errors' in checked) return this.sendList(req, res, 400, form, undefined, formErrors(checked.detail, checked.errors));
    try {
      const created = await this.webhooks.create(accountOf(req), checked.value.url, checked.value.events);
      await this.sendList(req, res, 201, { url: '', events: DEFAULT_WEBHOOK_EVENTS }, created);
    } catch (error) {
      const problem = problemMessage(error);
      await this.sendList(req, res, problem.status, form, undefined, formErrors(problem.detail, problem.errors));
    }
  }

  @Get(':id')
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.sendEndpoint(req, res, id, 200);
  }

  /** Queues a signed `webhook.test` event (WebhooksService.sendTest); a disabled endpoint answers 409 on its page. */
  @Post(':id/test')
  async sendTest(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      await this.webhooks.sendTest(accountOf(req), id);
      res.redirect(303, `/app/webhooks/${encodeURIComponent(id)}?done=webhook-test-queued`);
    } catch (error) {
      const problem = problemMessage(error);
      if (problem.status === 404) return sendNotFound(req, res, NOT_FOUND);
      await this.sendEndpoint(req, res, id, problem.status, formErrors(problem.detail));
    }
  }

  @Post(':id/enable')
  async enable(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.act(req, res, () => this.webhooks.enable(accountOf(req), id), `/app/webhooks/${encodeURIComponent(id)}?done=webhook-enabled`);
  }

  @Post(':id/delete')
  async remove(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    await this.act(req, res, () => this.webhooks.remove(accountOf(req), id), '/app/webhooks?done=webhook-deleted');
  }

  /** Runs a service action and redirects (303); an unknown or foreign endpoint is the not-found page. */
  private async act(req: Request, res: Response, action: () => Promise<unknown>, redirectTo: string): Promise<void> {
    try {
      await action();
      res.redirect(303, redirectTo);
    } catch (error) {
      if (problemMessage(error).status === 404) return sendNotFound(req, res, NOT_FOUND);
      throw error;
    }
  }

  private async sendList(
    req: Request,
    res: Response,
    status: number,
    form: WebhookForm,
    created?: CreatedWebhookResponse,
    error?: ReturnType<typeof formErrors>,
  ): Promise<void> {
    const { webhooks, limit } = await this.webhooks.list(accountOf(req));
    sendPage(res, status, webhooksPage(pageContext(req), webhooks, limit, form, created, error));
  }

  private async sendEndpoint(req: Request, res: Response, id: string, status: number, error?: ReturnType<typeof formErrors>): Promise<void> {
    const account = accountOf(req);
    try {
      const endpoint = await this.webhooks.get(account, id);
      const { deliveries } = await this.webhooks.deliveries(account, id);
      sendPage(res, status, webhookPage(pageContext(req), endpoint, deliveries, error));
    } catch (error_) {
      if (problemMessage(error_).status === 404) return sendNotFound(req, res, NOT_FOUND);
      throw error_;
    }
  }
}
