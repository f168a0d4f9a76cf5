import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated } from '../auth/auth.decorators';
import { GateService } from '../gate/gate.service';
import { DashboardTraces } from './trace-pages.controller';
import { accountOf, pageContext, pageNumber, sendNotFound, sendPage, text } from './dashboard-http';
import { gateOverviewPage, gateRefPage, gateRunPage } from './views/gate.view';

const PAGE_SIZE = 20;
const MAX_REFS = 200;
/** Runs drawn in a ref's score plot. */
const HISTORY_RUNS = 200;

/** Gate runs: refs with their latest verdicts, a ref's history, a run's failures; all through GateService. */
@ApiExcludeController()
@Authenticated()
@Controller('app/gate')
export class GatePagesController {
  constructor(
    private readonly gate: GateService,
    private readonly traces: DashboardTraces,
  ) {}

  @Get()
  async overview(@Req() req: Request, @Res() res: Response, @Query('page') pageParam: unknown): Promise<void> {
    const account = accountOf(req);
    const page = pageNumber(pageParam);
    const [refs, runs] = await Promise.all([this.gate.refs(account, MAX_REFS), this.gate.list(account, undefined, page, PAGE_SIZE)]);
    sendPage(res, 200, gateOverviewPage(pageContext(req), refs, runs));
  }

  @Get('ref')
  async ref(@Req() req: Request, @Res() res: Response, @Query('ref') refParam: unknown, @Query('page') pageParam: unknown): Promise<void> {
    const ref = text(refParam, 200);
    if (!ref) return sendNotFound(req, res, 'Name a ref: /app/gate/ref?ref=<ref>.');
    const account = accountOf(req);
    const page = pageNumber(pageParam);
    const [history, runs] = await Promise.all([this.gate.scoreHistory(account, ref, HISTORY_RUNS), this.gate.list(account, ref, page, PAGE_SIZE)]);
    if (runs.total === 0) return sendNotFound(req, res, 'No gate runs with this ref in your account.');
    sendPage(res, 200, gateRefPage(pageContext(req), ref, history, runs));
  }

  @Get('runs/:id')
  async run(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const run = await this.gate.read(accountOf(req), id);
    if (!run) return sendNotFound(req, res, 'No gate run with this id in your account.');
    sendPage(res, 200, gateRunPage(pageContext(req), run, this.traces.shown));
  }
}
