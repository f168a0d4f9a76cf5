import { Body, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MailproofConfig } from '@mailproof/config';
import { AccountService } from '../account/account.service';
import { UpdateAccountRequest } from '../account/dto/update-account.request';
import { Authenticated } from '../auth/auth.decorators';
import { clearDashboardCookie, SESSION_COOKIE } from '../auth/dashboard-cookies';
import type { AuthenticatedRequest } from '../auth/request-identity';
import { accountOf, formErrors, pageContext, problemMessage, sendPage, validateForm } from './dashboard-http';
import { accountPage } from './views/account.view';

/** The account page: retention, what is kept, the export and erasure, through AccountService like /api/account (docs/privacy.md). */
@ApiExcludeController()
@Authenticated()
@Controller('app/account')
export class AccountPagesController {
  constructor(
    private readonly account: AccountService,
    private readonly config: MailproofConfig,
  ) {}

  @Get()
  async show(@Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    sendPage(res, 200, accountPage(pageContext(req), await this.account.settings(accountOf(req))));
  }

  @Post()
  async update(@Req() req: AuthenticatedRequest, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const account = accountOf(req);
    const days = typeof body.retentionDays === 'string' && /^\d{1,4}$/.test(body.retentionDays.trim()) ? Number(body.retentionDays) : body.retentionDays;
    const checked = await validateForm(UpdateAccountRequest, { retentionDays: days });
    try {
      if ('errors' in checked) {
        return sendPage(res, 400, accountPage(pageContext(req), await this.account.settings(account), formErrors(checked.detail, checked.errors)));
      }
      await this.account.setRetention(account, checked.value.retentionDays);
      res.redirect(303, '/app/account?done=retention-saved');
    } catch (error) {
      const problem = problemMessage(error);
      sendPage(res, problem.status, accountPage(pageContext(req), await this.account.settings(account), formErrors(problem.detail)));
    }
  }

  @Get('export')
  async export(@Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    res.status(200);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="mailproof-export.json"');
    res.setHeader('Cache-Control', 'no-store');
    await pipeline(Readable.from(this.account.exportChunks(accountOf(req))), res);
  }

  /** Erases only when the typed name matches the account's; the session ends with the account. */
  @Post('erase')
  async erase(@Req() req: AuthenticatedRequest, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const account = accountOf(req);
    const settings = await this.account.settings(account);
    if (typeof body.confirm !== 'string' || body.confirm.trim() !== settings.name) {
      const message = formErrors("Nothing was erased: type the account's name exactly to confirm.", [
        { field: 'confirm', message: `must be ${settings.name}` },
      ]);
      return sendPage(res, 400, accountPage(pageContext(req), settings, message));
    }
    await this.account.erase(account.accountId, 'dashboard');
    clearDashboardCookie(req, res, this.config.http.publicBaseUrl, SESSION_COOKIE);
    res.redirect(303, '/app/sign-in');
  }
}
