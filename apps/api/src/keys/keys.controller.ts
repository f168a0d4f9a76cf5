import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { CreateKeyRequest } from './dto/create-key.request';
import { CreatedKeyResponse, KeyListResponse } from './dto/key.response';
import { KeysService } from './keys.service';

@ApiTags('keys')
@Authenticated()
@Controller('api/keys')
export class KeysController {
  constructor(private readonly keys: KeysService) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key for the calling account. The key is returned once.' })
  @ApiCreatedResponse({ type: CreatedKeyResponse })
  create(@CurrentAccount() account: AuthenticatedAccount, @Body() body: CreateKeyRequest): Promise<CreatedKeyResponse> {
    return this.keys.create(account, body.name);
  }

  @Get()
  @ApiOperation({ summary: "List the account's active keys with 30 days of usage." })
  @ApiOkResponse({ type: KeyListResponse })
  async list(@CurrentAccount() account: AuthenticatedAccount): Promise<KeyListResponse> {
    return { keys: await this.keys.list(account) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: "Revoke a key (the calling key too); dashboard sessions opened with it end. Another account's key is 404." })
  @ApiNoContentResponse()
  revoke(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(account, id);
  }
}
