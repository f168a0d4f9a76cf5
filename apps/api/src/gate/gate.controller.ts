import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentAccount, RequiresPlan } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { doneOrProblem } from '../problems/problem-for-failure';
import { ProblemException } from '../problems/problem.exception';
import { GateRequest } from './dto/gate.request';
import { GateRunsQuery } from './dto/gate-runs.query';
import { GateRunListResponse, GateRunResponse, GateVerdictResponse } from './dto/gate-verdict.response';
import { gateRunNotReadyProblem } from './gate-problems';
import { GateService } from './gate.service';

@ApiTags('gate')
@Controller('api/gate')
@RequiresPlan('pro')
export class GateController {
  constructor(private readonly gate: GateService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Is this email safe to send? A verdict with its reasons; a failing verdict is 200 with passed: false. Pro plan.' })
  @ApiOkResponse({ type: GateVerdictResponse })
  @ApiResponse({ status: 400, description: 'bad request (validation_failed), a URL declined (url_declined) or unreachable (url_unreachable)' })
  @ApiResponse({ status: 403, description: 'plan_required: the gate needs the Pro plan' })
  @ApiResponse({ status: 413, description: 'html over 500 KB' })
  @ApiResponse({ status: 422, description: 'the email did not compile (compile_failed with message and line)' })
  @ApiResponse({ status: 503, description: 'the run did not finish within its budget; the body carries the run id' })
  async run(@Body() body: GateRequest, @CurrentAccount() account: AuthenticatedAccount) {
    // A verdict (passed or not) is 200; a run that ended without one answers its failure's problem; one still running, 503.
    return doneOrProblem(await this.gate.run(body, account), gateRunNotReadyProblem);
  }

  @Get('runs')
  @ApiOperation({ summary: "The account's gate runs, newest first, optionally of one ref." })
  @ApiOkResponse({ type: GateRunListResponse })
  list(@CurrentAccount() account: AuthenticatedAccount, @Query() query: GateRunsQuery) {
    return this.gate.list(account, query.ref, query.page ?? 1, query.pageSize ?? 20);
  }

  @Get('runs/:id')
  @ApiOperation({ summary: 'One gate run: its verdict when completed, or why it failed.' })
  @ApiOkResponse({ type: GateRunResponse })
  async read(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string) {
    const run = await this.gate.read(account, id);
    if (!run) throw new ProblemException('not_found', 'No gate run with this id.');
    return run;
  }
}
