import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { clientSummaries } from '@mailproof/engine';
import type { Request, Response } from 'express';
import { Authenticated } from '../auth/auth.decorators';
import { pageContext, sendPage } from './dashboard-http';
import { clientsPage } from './views/clients.view';

/** The clients page (/app/clients): each client's model and behaviour inventory, as GET /api/clients gives them. */
@ApiExcludeController()
@Authenticated()
@Controller('app/clients')
export class ClientPagesController {
  private readonly clients = clientSummaries();

  @Get()
  list(@Req() req: Request, @Res() res: Response): void {
    sendPage(res, 200, clientsPage(pageContext(req), this.clients));
  }
}
