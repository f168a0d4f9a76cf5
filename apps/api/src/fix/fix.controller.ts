import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { sendJsonBody, sendStoredJson } from '../http/stored-json-response';
import { doneOrProblem, problemForFailure } from '../problems/problem-for-failure';
import { ProblemException } from '../problems/problem.exception';
import { FixRequest } from './dto/fix.request';
import { FixResponse } from './dto/fix.response';
import { fixNotReadyProblem } from './fix-problems';
import { FixService } from './fix.service';

@ApiTags('fix')
@Controller('api')
export class FixController {
  constructor(private readonly fixes: FixService) {}

  @Post('fix')
  @ApiOperation({
    summary:
      'Apply the safe fixes (and the layout ones when asked) to an email, each proven by analyzing the result again, and return the patched email with its diff. Works without a key (per-IP limit).',
  })
  @ApiOkResponse({ type: FixResponse })
  @ApiResponse({ status: 400, description: 'unknown tiers, clients or format, or a malformed body (problem+json validation_failed naming the field)' })
  @ApiResponse({ status: 413, description: 'html over 500 KB, or over an engine limit (problem+json payload_too_large)' })
  @ApiResponse({ status: 422, description: 'the email did not compile (compile_failed with message and line)' })
  @ApiResponse({ status: 503, description: 'no worker answered in time; the body carries the fix run id' })
  async create(
    @Body() body: FixRequest,
    @CurrentAccount() account: AuthenticatedAccount | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // Fixed: 200 with the answer; a failure: its problem (422, 413, 500); still queued after the budget: 503 with the id.
    const run = doneOrProblem(await this.fixes.create(body, account), fixNotReadyProblem);
    await sendStoredJson(req, res, run.result ?? Buffer.alloc(0));
  }

  @Get('fix/:id')
  @ApiOperation({ summary: 'A fix run, for 24 hours. Anonymous runs: anyone with the id; account runs: that account.' })
  @ApiOkResponse({ type: FixResponse })
  @ApiResponse({ status: 410, description: "content_gone: the stored answer's encryption key was destroyed (docs/privacy.md)" })
  @ApiAcceptedResponse({ description: '{ id, status: "queued" }: still being fixed' })
  async read(@Param('id') id: string, @CurrentAccount() account: AuthenticatedAccount | undefined, @Req() req: Request, @Res() res: Response): Promise<void> {
    const outcome = await this.fixes.read(id, account);
    if (!outcome) throw new ProblemException('not_found', 'No fix run with this id.');
    if (outcome.state === 'failed') throw problemForFailure(outcome.failure, outcome.subject);
    if (outcome.state === 'done') return sendStoredJson(req, res, outcome.value.result ?? Buffer.alloc(0));
    res.setHeader('Retry-After', '2');
    await sendJsonBody(req, res, 202, { body: Buffer.from(JSON.stringify({ id: outcome.subject.id, status: 'queued' })) });
  }
}
