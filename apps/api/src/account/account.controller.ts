import { Body, Controller, Delete, Get, Headers, HttpCode, Patch, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Authenticated, CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { ProblemException } from '../problems/problem.exception';
import { AccountService } from './account.service';
import { AccountErasureResponse, AccountResponse } from './dto/account.response';
import { DeleteAccountRequest } from './dto/delete-account.request';
import { UpdateAccountRequest } from './dto/update-account.request';

export const CONFIRM_HEADER = 'mailproof-confirm';

@ApiTags('account')
@Authenticated()
@Controller('api/account')
export class AccountController {
  constructor(private readonly account: AccountService) {}

  @Get()
  @ApiOperation({ summary: 'The calling account: plan and retention (how long email content is kept, docs/privacy.md).' })
  @ApiOkResponse({ type: AccountResponse })
  read(@CurrentAccount() account: AuthenticatedAccount): Promise<AccountResponse> {
    return this.account.settings(account);
  }

  @Patch()
  @ApiOperation({ summary: 'Change the retention (0-365 days; free accounts at most 30). Applies to stored content at the next sweep.' })
  @ApiOkResponse({ type: AccountResponse })
  @ApiBadRequestResponse({ description: 'retentionDays missing or outside 0-365 (validation_failed)' })
  @ApiForbiddenResponse({ description: 'more days than the plan allows (plan_required, with maxRetentionDays)' })
  update(@CurrentAccount() account: AuthenticatedAccount, @Body() body: UpdateAccountRequest): Promise<AccountResponse> {
    return this.account.setRetention(account, body.retentionDays);
  }

  @Get('export')
  @ApiOperation({
    summary:
      'Everything stored for the account, streamed as one JSON object: previews with sources and results, gate runs and baselines, fix runs, shares, screenshots, domains, audits, drift events, keys (no secrets), webhooks (no secret) and deliveries, usage.',
  })
  @ApiProduces('application/json')
  @ApiOkResponse({ description: 'The export (docs/privacy.md lists its sections).' })
  async export(@CurrentAccount() account: AuthenticatedAccount, @Res() res: Response): Promise<void> {
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="mailproof-export.json"');
    res.setHeader('Cache-Control', 'no-store');
    await pipeline(Readable.from(this.account.exportChunks(account)), res);
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Erase the account: every row, its screenshots, its Redis keys and jobs; its keys answer 401 at once. Needs Mailproof-Confirm: delete or { "confirm": "delete" }. One audit record without content stays.',
  })
  @ApiHeader({ name: 'Mailproof-Confirm', required: false, description: 'delete' })
  @ApiOkResponse({ type: AccountErasureResponse })
  @ApiBadRequestResponse({ description: 'no confirmation (validation_failed, naming Mailproof-Confirm)' })
  async erase(
    @CurrentAccount() account: AuthenticatedAccount,
    @Headers(CONFIRM_HEADER) confirmHeader: string | undefined,
    @Body() body: DeleteAccountRequest,
  ): Promise<AccountErasureResponse> {
    if (confirmHeader?.trim().toLowerCase() !== 'delete' && body.confirm !== 'delete') {
      throw new ProblemException('validation_failed', 'Erasing an account needs the header Mailproof-Confirm: delete or the body { "confirm": "delete" }.', {
        errors: [{ field: 'Mailproof-Confirm', message: 'must be "delete" (or send { "confirm": "delete" })' }],
      });
    }
    const erasure = await this.account.erase(account.accountId, 'api');
    return { erasureId: erasure.erasureId, rowCounts: erasure.rowCounts };
  }
}
