import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { MailproofConfig } from '@mailproof/config';
import { Authenticated } from '../auth/auth.decorators';
import { clearDashboardCookie, SESSION_COOKIE } from '../auth/dashboard-cookies';
import type { AuthenticatedRequest } from '../auth/request-identity';
import { CreateKeyRequest } from '../keys/dto/create-key.request';
import { KeysService } from '../keys/keys.service';
import { accountOf, formErrors, pageContext, problemMessage, sendNotFound, sendPage, validateForm } from './dashboard-http';
import { keysPage } from './views/keys.view';

/** API keys: create (shown once), revoke, 30-day usage; all through KeysService like /api/keys. */
@ApiExcludeController()
@Authenticated()
@Controller('app/keys')
export class KeyPagesController {
  constructor(
    private readonly keys: KeysService,
    private readonly config: MailproofConfig,
  ) {}

  @Get()
  async list(@Req() req: AuthenticatedRequest, @Res() res: Response): Promise<void> {
    sendPage(res, 200, keysPage(pageContext(req), await this.keys.list(accountOf(req)), req.dashboardSession?.keyId));
  }

  /** Answers with the page itself (201), not a redirect: the new key must never travel in a URL. */
  @Post()
  async create(@Req() req: AuthenticatedRequest, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const account = accountOf(req);
    const checked = await validateForm(CreateKeyRequest, { name: body.name });
    try {
      if ('errors' in checked) {
        return sendPage(
          res,
          400,
          keysPage(pageContext(req), await this.keys.list(account), req.dashboardSession?.keyId, undefined, formErrors(checked.detail, checked.errors)),
        );
      }
      const created = await this.keys.create(account, checked.value.name);
      sendPage(res, 201, keysPage(pageContext(req), await this.keys.list(account), req.dashboardSession?.keyId, created));
    } catch (error) {
      const problem = problemMessage(error);
      sendPage(
        res,
        problem.status,
        keysPage(pageContext(req), await this.keys.list(account), req.dashboardSession?.keyId, undefined, formErrors(problem.detail)),
      );
    }
  }

  @Post(':id/revoke')
  async revoke(@Req() req: AuthenticatedRequest, @Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      await this.keys.revoke(accountOf(req), id);
    } catch (error) {
      if (problemMessage(error).status === 404) return sendNotFound(req, res, 'No active key with this id in your account.');
      throw error;
    }
    // Revoking the key this session signed in with ended the session too.
    if (id === req.dashboardSession?.keyId) {
      clearDashboardCookie(req, res, this.config.http.publicBaseUrl, SESSION_COOKIE);
      return res.redirect(303, '/app/sign-in');
    }
    res.redirect(303, '/app/keys?done=key-revoked');
  }
}
