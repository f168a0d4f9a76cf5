import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, CurrentAccount } from '../auth/auth.decorators';
import type { AuthenticatedAccount } from '../auth/request-identity';
import { sendJsonBody, sendStoredPreview } from '../http/stored-json-response';
import { doneOrProblem, problemForFailure } from '../problems/problem-for-failure';
import { ProblemException } from '../problems/problem.exception';
import { ListPreviewsQuery } from './dto/list-previews.query';
import { PreviewRequest, ScreenshotsRequest } from './dto/preview.request';
import { ClientScore, PreviewListResponse, PreviewResponse, ScreenshotsResponse } from './dto/preview.response';
import { previewNotReadyProblem } from './preview-problems';
import { PreviewsService } from './previews.service';

@ApiTags('previews')
@ApiExtraModels(ClientScore)
@Controller('api')
export class PreviewsController {
  constructor(private readonly previews: PreviewsService) {}

  @Post('preview')
  @ApiOperation({
    summary: 'Analyze an email for 21 clients. Works without a key (per-IP limit); with a key the preview is saved to the account.',
  })
  @ApiOkResponse({ type: PreviewResponse })
  @ApiResponse({ status: 413, description: 'html over 500 KB (problem+json payload_too_large)' })
  @ApiResponse({ status: 422, description: 'the email did not compile (compile_failed with message and line)' })
  @ApiResponse({ status: 503, description: 'no worker answered in time; the body carries the preview id' })
  async create(
    @Body() body: PreviewRequest,
    @CurrentAccount() account: AuthenticatedAccount | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // Analyzed: 200 with the result; a failure: its problem (422, 413, 500); still queued after the budget: 503 with the id.
    await sendStoredPreview(req, res, doneOrProblem(await this.previews.create(body, account), previewNotReadyProblem));
  }

  @Get('preview/:id')
  @ApiOperation({ summary: 'A stored preview. Anonymous previews: anyone with the id; account previews: that account.' })
  @ApiOkResponse({ type: PreviewResponse })
  @ApiAcceptedResponse({ description: '{ id, status: "queued" }: still being analyzed' })
  @ApiResponse({
    status: 410,
    description:
      "content_gone: the email is no longer stored: its content was removed (the account's retention or retain: false; the body adds contentRemoved: true and the overallScore), or its encryption key was destroyed (an erased account's restored backup; docs/privacy.md)",
  })
  async read(@Param('id') id: string, @CurrentAccount() account: AuthenticatedAccount | undefined, @Req() req: Request, @Res() res: Response): Promise<void> {
    const outcome = await this.previews.read(id, account);
    if (!outcome) throw new ProblemException('not_found', 'No preview with this id.');
    if (outcome.state === 'done' && outcome.value.result === null) {
      // Past its account's retention (or asked not to be kept): the row, its score and its gate summary stay, the email is gone (docs/privacy.md).
      throw new ProblemException('content_gone', "This preview's content was removed (its account's retention, or retain: false); its score remains.", {
        id: outcome.value.id,
        contentRemoved: true,
        overallScore: outcome.value.overallScore,
      });
    }
    if (outcome.state === 'failed') throw problemForFailure(outcome.failure, outcome.subject);
    if (outcome.state === 'done') return sendStoredPreview(req, res, outcome.value);
    res.setHeader('Retry-After', '2');
    await sendJsonBody(req, res, 202, { body: Buffer.from(JSON.stringify({ id: outcome.subject.id, status: 'queued' })) });
  }

  @Post('preview/:id/screenshots')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Render screenshots of a stored preview (light/dark per client) and wait up to PREVIEW_RENDER_WAIT_MS. Anonymous previews: anyone with the id; account previews: that account.',
  })
  @ApiOkResponse({ type: ScreenshotsResponse })
  @ApiResponse({ status: 400, description: 'unknown client ids or modes, or clients this preview did not analyze (validation_failed)' })
  @ApiResponse({ status: 410, description: "content_gone: the preview's content was removed (retention or retain: false; contentRemoved: true)" })
  @ApiResponse({ status: 503, description: 'the preview is still being analyzed, or the queue is unavailable' })
  captureScreenshots(@Param('id') id: string, @Body() body: ScreenshotsRequest, @CurrentAccount() account: AuthenticatedAccount | undefined) {
    return this.previews.captureScreenshots(id, body, account);
  }

  @Get('previews')
  @Authenticated()
  @ApiOperation({ summary: "The account's saved previews, newest first unless sorted otherwise; q finds a part of the title." })
  @ApiOkResponse({ type: PreviewListResponse })
  list(@CurrentAccount() account: AuthenticatedAccount, @Query() query: ListPreviewsQuery) {
    return this.previews.list(account.accountId, query.page ?? 1, query.pageSize ?? 20, { titleContains: query.q, sort: query.sort });
  }

  @Delete('preview/:id')
  @Authenticated()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one of your saved previews (and its share links).' })
  @ApiNoContentResponse()
  async delete(@CurrentAccount() account: AuthenticatedAccount, @Param('id') id: string): Promise<void> {
    await this.previews.delete(account.accountId, id);
  }
}
