import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { DeliverabilityService } from './deliverability.service';
import { domainOrBadRequest, selectorsOrBadRequest } from './domain-input';
import { DeliverabilityRequest } from './dto/deliverability.request';
import { DeliverabilityResponse } from './dto/deliverability.response';

@ApiTags('deliverability')
@Authenticated()
@Controller('api/deliverability')
export class DeliverabilityController {
  constructor(private readonly deliverability: DeliverabilityService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Audit the SPF, DKIM, DMARC, MX and BIMI records of a domain now.' })
  @ApiOkResponse({ type: DeliverabilityResponse })
  @ApiBadRequestResponse({ description: 'Not a domain: an IP literal, a single label, an over-long name or bad characters.' })
  @ApiServiceUnavailableResponse({ description: 'The audit did not finish within DELIVERABILITY_BUDGET_MS (Retry-After).' })
  audit(@CurrentAccount() account: AuthenticatedAccount, @Body() body: DeliverabilityRequest): Promise<DeliverabilityResponse> {
    return this.deliverability.audit(account, domainOrBadRequest(body.domain), selectorsOrBadRequest(body.dkimSelectors));
  }
}
