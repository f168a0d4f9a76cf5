import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
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
import { domainOrBadRequest, selectorsOrBadRequest } from '../deliverability/domain-input';
import { DomainsService } from './domains.service';
import { AddDomainRequest } from './dto/add-domain.request';
import { DomainHistoryQuery } from './dto/domain-history.request';
import { DomainHistoryResponse, MonitoredDomainListResponse, MonitoredDomainResponse } from './dto/monitored-domain.response';

@ApiTags('domains')
@Authenticated()
@Controller('api/domains')
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Post()
  @ApiOperation({ summary: 'Monitor a sending domain for DNS drift; its first audit starts at once.' })
  @ApiCreatedResponse({ type: MonitoredDomainResponse })
  @ApiConflictResponse({ description: 'The account already monitors this domain (problem carries its id).' })
  @ApiForbiddenResponse({ description: "The plan's domain limit is reached (DOMAIN_LIMIT_FREE / DOMAIN_LIMIT_PRO)." })
  add(@CurrentAccount() account: AuthenticatedAccount, @Body() body: AddDomainRequest): Promise<MonitoredDomainResponse> {
    return this.domains.add(account, domainOrBadRequest(body.domain), selectorsOrBadRequest(body.dkimSelectors));
  }

  @Get()
  @ApiOperation({ summary: "The account's monitored domains with their DNS health." })
  @ApiOkResponse({ type: MonitoredDomainListResponse })
  list(@CurrentAccount() account: AuthenticatedAccount): Promise<MonitoredDomainListResponse> {
    return this.domains.list(account);
  }

  @Get(':id/history')
  @ApiOperation({ summary: 'Past audits and drift events of one monitored domain, newest first.' })
  @ApiOkResponse({ type: DomainHistoryResponse })
  @ApiNotFoundResponse({ description: "Unknown id, or another account's domain." })
  history(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string, @Query() query: DomainHistoryQuery): Promise<DomainHistoryResponse> {
    return this.domains.history(account, id, query.limit);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop monitoring a domain; its audits and drift events are deleted with it.' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: "Unknown id, or another account's domain." })
  remove(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<void> {
    return this.domains.remove(account, id);
  }
}
