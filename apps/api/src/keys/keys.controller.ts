import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MailproofConfig } from '@mailproof/config';
import { AccountsRepository, KeyLimitReachedError } from '@mailproof/persistence';
import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { Authenticated, CurrentAccount, type AuthenticatedAccount } from '../auth/auth.decorators';
import { ProblemException } from '../problems/problem.exception';
import { CreateKeyRequest } from './dto/create-key.request';
import { CreatedKeyResponse, KeyListResponse } from './dto/key.response';

@ApiTags('keys')
@Authenticated()
@Controller('api/keys')
export class KeysController {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly config: MailproofConfig,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key for the calling account. The key is returned once.' })
  @ApiCreatedResponse({ type: CreatedKeyResponse })
  async create(@CurrentAccount() account: AuthenticatedAccount, @Body() body: CreateKeyRequest): Promise<CreatedKeyResponse> {
    try {
      const key = await this.accounts.createKey(account.accountId, body.name, this.config.auth.keyLimits);
      return { ...key, createdAt: key.createdAt.toISOString() };
    } catch (error) {
      if (error instanceof KeyLimitReachedError) {
        throw new ProblemException(
          403,
          'forbidden',
          `${error.plan === 'free' ? 'Free' : 'Pro'} accounts may hold up to ${error.limit} active keys; revoke one first${error.plan === 'free' ? ' or move to Pro' : ''}.`,
          { limit: error.limit },
        );
      }
      throw error;
    }
  }

  @Get()
  @ApiOperation({ summary: "List the account's active keys with 30 days of usage." })
  @ApiOkResponse({ type: KeyListResponse })
  async list(@CurrentAccount() account: AuthenticatedAccount): Promise<KeyListResponse> {
    return { keys: await this.accounts.listKeysWithUsage(account.accountId) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key (the calling key too). Another account\'s key is 404.' })
  @ApiNoContentResponse()
  async revoke(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<void> {
    const revoked = await this.accounts.revokeKey(account.accountId, id);
    if (!revoked) throw new ProblemException(404, 'not_found', 'No active key with this id in your account.');
    this.authenticator.forgetKey(id);
  }
}
