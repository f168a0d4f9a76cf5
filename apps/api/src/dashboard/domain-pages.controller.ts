import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated } from '../auth/auth.decorators';
import { domainOrBadRequest, selectorsOrBadRequest } from '../deliverability/domain-input';
import { DomainsService } from '../domains/domains.service';
import { AddDomainRequest } from '../domains/dto/add-domain.request';
import { accountOf, formErrors, pageContext, problemMessage, sendNotFound, sendPage, text, validateForm } from './dashboard-http';
import { domainPage, domainsPage } from './views/domains.view';

/** A year of daily points in a domain's score plot. */
const HISTORY_DAYS = 365;

/** Monitored domains: list, add, remove, history; all through DomainsService (the same checks as /api/domains). */
@ApiExcludeController()
@Authenticated()
@Controller('app/domains')
export class DomainPagesController {
  constructor(private readonly domains: DomainsService) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { domains, limit } = await this.domains.list(accountOf(req));
    sendPage(res, 200, domainsPage(pageContext(req), domains, limit, { domain: '', selectors: '' }));
  }

  @Post()
  async add(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const account = accountOf(req);
    const form = { domain: text(body.domain, 300) ?? '', selectors: text(body.dkimSelectors, 1000) ?? '' };
    const selectors = form.selectors
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    try {
      const checked = await validateForm(AddDomainRequest, { domain: form.domain.trim(), ...(selectors.length > 0 ? { dkimSelectors: selectors } : {}) });
      if ('errors' in checked) return this.sendForm(req, res, 400, form, formErrors(checked.detail, checked.errors));
      const added = await this.domains.add(account, domainOrBadRequest(checked.value.domain), selectorsOrBadRequest(checked.value.dkimSelectors));
      res.redirect(303, `/app/domains/${encodeURIComponent(added.id)}?done=domain-added`);
    } catch (error) {
      const problem = problemMessage(error);
      await this.sendForm(req, res, problem.status, form, formErrors(problem.detail, problem.errors));
    }
  }

  @Get(':id')
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      const timeline = await this.domains.timeline(accountOf(req), id, HISTORY_DAYS);
      sendPage(res, 200, domainPage(pageContext(req), { ...timeline, days: HISTORY_DAYS }));
    } catch (error) {
      if (problemMessage(error).status === 404) return sendNotFound(req, res, 'No monitored domain with this id in your account.');
      throw error;
    }
  }

  @Post(':id/delete')
  async remove(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    try {
      await this.domains.remove(accountOf(req), id);
      res.redirect(303, '/app/domains?done=domain-removed');
    } catch (error) {
      if (problemMessage(error).status === 404) return sendNotFound(req, res, 'No monitored domain with this id in your account.');
      throw error;
    }
  }

  private async sendForm(
    req: Request,
    res: Response,
    status: number,
    form: { domain: string; selectors: string },
    error: ReturnType<typeof formErrors>,
  ): Promise<void> {
    const { domains, limit } = await this.domains.list(accountOf(req));
    sendPage(res, status, domainsPage(pageContext(req), domains, limit, form, error));
  }
}
