import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { CreateWebhookRequest } from './dto/create-webhook.request';
import { RecentItemsQuery } from '../common/recent-items.query';
import { CreatedWebhookResponse, WebhookDeliveryListResponse, WebhookEndpointResponse, WebhookListResponse, WebhookTestResponse } from './dto/webhook.response';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Authenticated()
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiOperation({ summary: 'Register a webhook endpoint. The signing secret is returned once.' })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  @ApiBadRequestResponse({ description: 'Bad URL or unknown events (validation_failed), or a URL webhooks are not sent to (url_declined).' })
  @ApiForbiddenResponse({ description: 'The account holds WEBHOOK_ENDPOINT_LIMIT endpoints already.' })
  create(@CurrentAccount() account: AuthenticatedAccount, @Body() body: CreateWebhookRequest): Promise<CreatedWebhookResponse> {
    return this.webhooks.create(account, body.url, body.events);
  }

  @Get()
  @ApiOperation({ summary: "The account's webhook endpoints (without their secrets)." })
  @ApiOkResponse({ type: WebhookListResponse })
  list(@CurrentAccount() account: AuthenticatedAccount): Promise<WebhookListResponse> {
    return this.webhooks.list(account);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint, with why it was disabled if it was.' })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiNotFoundResponse({ description: "Unknown id, or another account's endpoint." })
  get(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<WebhookEndpointResponse> {
    return this.webhooks.get(account, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an endpoint; its delivery log goes with it and queued deliveries are not sent.' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: "Unknown id, or another account's endpoint." })
  remove(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<void> {
    return this.webhooks.remove(account, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: "An endpoint's deliveries, newest first: status, attempts, last answer and error." })
  @ApiOkResponse({ type: WebhookDeliveryListResponse })
  @ApiNotFoundResponse({ description: "Unknown id, or another account's endpoint." })
  deliveries(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string, @Query() query: RecentItemsQuery): Promise<WebhookDeliveryListResponse> {
    return this.webhooks.deliveries(account, id, query.limit);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a signed `webhook.test` event to this endpoint (queued; see its deliveries).' })
  @ApiAcceptedResponse({ type: WebhookTestResponse })
  @ApiNotFoundResponse({ description: "Unknown id, or another account's endpoint." })
  @ApiConflictResponse({ description: 'The endpoint is disabled.' })
  sendTest(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<WebhookTestResponse> {
    return this.webhooks.sendTest(account, id);
  }

  @Post(':id/enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn a disabled endpoint back on; its failure count starts again.' })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiNotFoundResponse({ description: "Unknown id, or another account's endpoint." })
  enable(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<WebhookEndpointResponse> {
    return this.webhooks.enable(account, id);
  }
}
